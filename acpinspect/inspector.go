package acpinspect

import (
	"encoding/json"
	"sync"
	"time"
)

// An Entry is one message of the list the UI shows.
type Entry struct {
	Seq     int64     `json:"seq"`
	Conn    int64     `json:"conn"`
	Time    time.Time `json:"time"`
	From    string    `json:"from"`
	Kind    string    `json:"kind"` // request, notification, response, error or invalid
	Method  string    `json:"method,omitempty"`
	ID      string    `json:"id,omitempty"` // the JSON text of the id
	Size    int       `json:"size"`
	Session string    `json:"session,omitempty"`
	// Pair is the seq of the response of a request, or of the request of
	// a response.
	Pair int64 `json:"pair,omitempty"`
	// LatencyMS is the time from a request to its response, on both.
	LatencyMS *float64 `json:"latencyMs,omitempty"`
	Type      string   `json:"type,omitempty"` // the decoded Go type
	// Verdict is ok, unknown (decoded, with unknown variants or members),
	// invalid (does not decode) or finding (decoded, breaks a rule).
	Verdict  string   `json:"verdict"`
	Problem  string   `json:"problem,omitempty"` // why it does not decode
	Path     string   `json:"path,omitempty"`    // where, when known
	Unknown  []string `json:"unknown,omitempty"`
	Findings []int    `json:"findings,omitempty"` // indexes into Findings
	Error    string   `json:"error,omitempty"`    // an error response's code and message
}

// A ConsoleLine is a line of an agent's standard error.
type ConsoleLine struct {
	Conn int64     `json:"conn"`
	Time time.Time `json:"time"`
	Text string    `json:"text"`
}

// ConnInfo describes a connection.
type ConnInfo struct {
	ID       int64     `json:"id"`
	Version  int       `json:"version"`
	Started  time.Time `json:"started"`
	Messages int       `json:"messages"`
	Client   string    `json:"client,omitempty"`
	Agent    string    `json:"agent,omitempty"`
}

// An Inspector decodes frames in the order they passed and keeps what the
// UI shows. It is a Recorder; its methods are safe for concurrent use.
type Inspector struct {
	mu       sync.RWMutex
	entries  chunked[Entry]
	frames   chunked[Frame] // the message frames, by seq-1
	conns    map[int64]*connState
	order    []int64
	findings []Finding
	console  []ConsoleLine
	stats    map[string]*methodStats
	changed  chan struct{} // closed at the next change; nil until asked for
	// dropped and droppedBytes count what passed unrecorded.
	dropped, droppedBytes int
	scan                  scanner       // reads the messages, under mu
	walker                unknownWalker // finds unknown members, under mu
}

// NewInspector returns an empty Inspector.
func NewInspector() *Inspector {
	return &Inspector{conns: map[int64]*connState{}, stats: map[string]*methodStats{}}
}

// Record decodes f and adds it.
func (in *Inspector) Record(f Frame) {
	in.mu.Lock()
	defer in.mu.Unlock()
	c := in.conns[f.Conn]
	if c == nil {
		c = newConnState(f.Conn, f.Time)
		in.conns[f.Conn] = c
		in.order = append(in.order, f.Conn)
	}
	if f.From == FromStderr {
		in.console = append(in.console, ConsoleLine{Conn: f.Conn, Time: f.Time, Text: string(f.Data)})
	} else {
		e := Entry{Seq: int64(in.entries.len() + 1), Conn: f.Conn, Time: f.Time, From: f.From.String(), Size: len(f.Data), Verdict: "ok"}
		i := in.entries.add(e)
		in.frames.add(f)
		c.messages++
		in.analyze(c, f, i)
	}
	in.notify()
}

// Gap counts lines that passed without being recorded: the page shows
// their number.
func (in *Inspector) Gap(conn int64, from Sender, lines, bytes int) {
	in.mu.Lock()
	defer in.mu.Unlock()
	in.dropped += lines
	in.droppedBytes += bytes
	in.notify()
}

// Dropped returns the number of lines, and their bytes, that passed
// without being recorded.
func (in *Inspector) Dropped() (lines, bytes int) {
	in.mu.RLock()
	defer in.mu.RUnlock()
	return in.dropped, in.droppedBytes
}

// notify closes the channel of Changed, when there is one: a change with
// no one waiting for it costs nothing.
func (in *Inspector) notify() {
	if in.changed != nil {
		close(in.changed)
		in.changed = nil
	}
}

// Changed returns a channel closed at the next change.
func (in *Inspector) Changed() <-chan struct{} {
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.changed == nil {
		in.changed = make(chan struct{})
	}
	return in.changed
}

// Len returns the number of messages.
func (in *Inspector) Len() int {
	in.mu.RLock()
	defer in.mu.RUnlock()
	return in.entries.len()
}

// Entries returns up to limit entries from seq from (1 is the first).
func (in *Inspector) Entries(from int64, limit int) []Entry {
	in.mu.RLock()
	defer in.mu.RUnlock()
	if from < 1 {
		from = 1
	}
	if from > int64(in.entries.len()) || limit <= 0 {
		return []Entry{}
	}
	end := min(int(from-1)+limit, in.entries.len())
	return in.entries.copyRange(int(from-1), end)
}

// Entry returns the entry of seq and its frame.
func (in *Inspector) Entry(seq int64) (Entry, Frame, bool) {
	in.mu.RLock()
	defer in.mu.RUnlock()
	if seq < 1 || seq > int64(in.entries.len()) {
		return Entry{}, Frame{}, false
	}
	return *in.entries.at(int(seq - 1)), *in.frames.at(int(seq - 1)), true
}

// Findings returns the findings so far.
func (in *Inspector) Findings() []Finding {
	in.mu.RLock()
	defer in.mu.RUnlock()
	return append([]Finding{}, in.findings...)
}

// Console returns the lines of standard error so far.
func (in *Inspector) Console() []ConsoleLine {
	in.mu.RLock()
	defer in.mu.RUnlock()
	return append([]ConsoleLine{}, in.console...)
}

// Conns describes the connections.
func (in *Inspector) Conns() []ConnInfo {
	in.mu.RLock()
	defer in.mu.RUnlock()
	out := []ConnInfo{}
	for _, id := range in.order {
		c := in.conns[id]
		out = append(out, ConnInfo{ID: id, Version: c.dialect.version(), Started: c.started, Messages: c.messages, Client: c.clientName, Agent: c.agentName})
	}
	return out
}

// frameList returns the frames of the messages, in order.
func (in *Inspector) frameList() []Frame {
	in.mu.RLock()
	defer in.mu.RUnlock()
	return in.frames.copyRange(0, in.frames.len())
}

// AppendJSONL appends every message to b as a line of a wire log written
// from the agent's side, which ReadWireLog reads back.
func (in *Inspector) AppendJSONL(b []byte) []byte {
	for _, f := range in.frameList() {
		b = appendWireRecord(b, f)
	}
	return b
}

// addFinding records a finding at entry i.
func (in *Inspector) addFinding(i int, rule, detail string) {
	e := in.entries.at(i)
	in.findings = append(in.findings, newFinding(rule, e.Conn, e.Seq, detail))
	e.Findings = append(e.Findings, len(in.findings)-1)
	if e.Verdict == "ok" || e.Verdict == "unknown" {
		e.Verdict = "finding"
	}
}

// envelope is the JSON-RPC envelope of a message, read generically.
type envelope struct {
	ID        json.RawMessage // nil when absent
	Method    string
	HasMethod bool // method is a string
	Params    json.RawMessage
	Result    json.RawMessage
	Error     *rpcError
	session   string // result.sessionId
}

// rpcError is the error of an error response.
type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}
