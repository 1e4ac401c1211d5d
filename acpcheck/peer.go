package acpcheck

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"
)

// maxLine is the longest line a peer reads; a longer one is a framing
// violation, read and dropped.
const maxLine = 64 << 20

// maxTranscriptText is how much of one message a transcript keeps.
const maxTranscriptText = 4096

// A msg is one JSON-RPC message read from the program under test.
type msg struct {
	Raw     []byte          `json:"-"`
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params"`
	Result  json.RawMessage `json:"result"`
	Error   *rpcError       `json:"error"`
}

type rpcError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

func (m *msg) isRequest() bool      { return m.Method != "" && m.ID != nil }
func (m *msg) isNotification() bool { return m.Method != "" && m.ID == nil }
func (m *msg) isResponse() bool     { return m.Method == "" }

// errTimeout is what a wait returns when its deadline passes.
var errTimeout = errors.New("no answer in time")

// errCancelled is what a wait returns once the run's context has ended.
var errCancelled = errors.New("the run was cancelled")

// errEOF is what a wait returns once the program's output has ended.
var errEOF = errors.New("the program's output ended")

// A peer speaks newline-delimited JSON-RPC with the program under test
// over a reader and a writer, keeps the transcript of both directions and
// notes every line that is not one JSON-RPC message. Its reading goroutine
// ends when the reader does (the program exits or the transport closes).
type peer struct {
	w     io.Writer
	start time.Time

	mu         sync.Mutex
	transcript []Line
	queue      []*msg
	framing    []string // lines that are not one JSON-RPC message
	badUTF8    []string
	ended      bool
	changed    chan struct{}

	nextID  int
	methods map[string]string // method of each request sent, by id text
	sentAt  map[string]time.Duration
	done    chan struct{}
}

func newPeer(w io.Writer, r io.Reader) *peer {
	p := &peer{w: w, start: time.Now(), changed: make(chan struct{}), methods: map[string]string{},
		sentAt: map[string]time.Duration{}, done: make(chan struct{})}
	go p.read(r)
	return p
}

func (p *peer) read(r io.Reader) {
	defer close(p.done)
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, err := readLine(br)
		if len(line) > 0 {
			p.take(line)
		}
		if err != nil {
			p.mu.Lock()
			p.ended = true
			p.note("# output ended: %v", err)
			p.broadcastLocked()
			p.mu.Unlock()
			return
		}
	}
}

// readLine reads one line without its newline, up to maxLine bytes.
func readLine(br *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(line)+len(chunk) <= maxLine {
			line = append(line, chunk...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		return bytes.TrimSuffix(bytes.TrimSuffix(line, []byte{'\n'}), []byte{'\r'}), err
	}
}

// take records one line and queues the message it holds.
func (p *peer) take(line []byte) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.record("<", line)
	if !utf8.Valid(line) {
		p.badUTF8 = append(p.badUTF8, clip(line))
	}
	trimmed := bytes.TrimSpace(line)
	if len(trimmed) == 0 {
		p.framing = append(p.framing, "an empty line")
		return
	}
	var m msg
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	if err := dec.Decode(&m); err != nil || trimmed[0] != '{' {
		p.framing = append(p.framing, fmt.Sprintf("not one JSON-RPC object: %s", clip(line)))
		return
	}
	if dec.More() {
		p.framing = append(p.framing, fmt.Sprintf("more than one JSON value on a line: %s", clip(line)))
	}
	m.Raw = append([]byte(nil), trimmed...)
	p.queue = append(p.queue, &m)
	p.broadcastLocked()
}

func (p *peer) broadcastLocked() {
	close(p.changed)
	p.changed = make(chan struct{})
}

// record appends a line to the transcript; p.mu is held.
func (p *peer) record(dir string, text []byte) {
	if len(p.transcript) >= maxTranscript {
		// A flooding program: keep the first lines and the latest ones.
		keep := maxTranscript / 2
		p.transcript = append(p.transcript[:keep:keep], Line{Dir: "#", At: time.Since(p.start), Text: "(lines left out)"})
	}
	p.transcript = append(p.transcript, Line{Dir: dir, At: time.Since(p.start), Text: clip(text)})
}

// maxTranscript bounds the lines a transcript keeps.
const maxTranscript = 5000

// note adds a note of the kit to the transcript; p.mu is held.
func (p *peer) note(format string, args ...any) {
	p.record("#", []byte(fmt.Sprintf(format, args...)))
}

// Note adds a note of the kit to the transcript.
func (p *peer) Note(format string, args ...any) {
	p.mu.Lock()
	p.note(format, args...)
	p.mu.Unlock()
}

func clip(b []byte) string {
	if len(b) > maxTranscriptText {
		return string(b[:maxTranscriptText]) + "…"
	}
	return string(b)
}

// Transcript returns a copy of the transcript so far.
func (p *peer) Transcript() []Line {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]Line(nil), p.transcript...)
}

// sendRaw writes one line as it is.
func (p *peer) sendRaw(line []byte) error {
	p.mu.Lock()
	p.record(">", line)
	p.mu.Unlock()
	_, err := p.w.Write(append(append([]byte(nil), line...), '\n'))
	return err
}

// request sends a request with a fresh integer id and returns the id's text.
func (p *peer) request(method string, params any) (string, error) {
	p.mu.Lock()
	p.nextID++
	id := strconv.Itoa(p.nextID)
	p.mu.Unlock()
	return id, p.requestID(id, method, params)
}

// requestID sends a request with the id given as JSON text.
func (p *peer) requestID(id, method string, params any) error {
	b, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": json.RawMessage(id), "method": method, "params": params})
	if err != nil {
		return err
	}
	p.mu.Lock()
	p.methods[id] = method
	p.sentAt[id] = time.Since(p.start)
	p.mu.Unlock()
	return p.sendRaw(b)
}

// notify sends a notification.
func (p *peer) notify(method string, params any) error {
	b, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
	if err != nil {
		return err
	}
	return p.sendRaw(b)
}

// respond answers a request of the program.
func (p *peer) respond(id json.RawMessage, result any) error {
	b, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "result": result})
	if err != nil {
		return err
	}
	return p.sendRaw(b)
}

// respondError answers a request of the program with an error.
func (p *peer) respondError(id json.RawMessage, code int, message string) error {
	b, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": code, "message": message}})
	if err != nil {
		return err
	}
	return p.sendRaw(b)
}

// next returns the next message, waiting until deadline or until cancel
// is closed (nil: never).
func (p *peer) next(deadline time.Time, cancel <-chan struct{}) (*msg, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for len(p.queue) == 0 {
		if p.ended {
			return nil, errEOF
		}
		wait := time.Until(deadline)
		if wait <= 0 {
			return nil, errTimeout
		}
		changed := p.changed
		p.mu.Unlock()
		t := time.NewTimer(wait)
		select {
		case <-changed:
		case <-t.C:
		case <-cancel:
			t.Stop()
			p.mu.Lock()
			return nil, errCancelled
		}
		t.Stop()
		p.mu.Lock()
	}
	m := p.queue[0]
	p.queue = p.queue[1:]
	return m, nil
}

// methodOf returns the method of the request with the id, if this peer sent it.
func (p *peer) methodOf(id json.RawMessage) (string, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	m, ok := p.methods[string(compactJSON(id))]
	return m, ok
}

// hygiene returns the framing and UTF-8 violations seen so far.
func (p *peer) hygiene() (framing, badUTF8 []string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.framing...), append([]string(nil), p.badUTF8...)
}

func compactJSON(b []byte) []byte {
	var buf bytes.Buffer
	if json.Compact(&buf, b) != nil {
		return b
	}
	return buf.Bytes()
}
