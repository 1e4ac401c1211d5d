package acphttp

import (
	"bytes"
	"context"
	"math/rand/v2"
	"strconv"
	"sync"
	"time"

	"github.com/go-json-experiment/json/jsontext"
)

// Reconnect makes a client transport live through drops of its streams,
// after the draft RFD "Durable & Resumable HTTP/WS Transport". When a
// stream closes unexpectedly (the TCP connection cut or reset, or silent
// for five keep-alive intervals) the transport reconnects to the same
// connection with jittered exponential backoff and a bounded number of
// tries, and resumes each stream after the cursor of the last message it
// got: the server sends what the client missed and nothing twice. Where
// the server does not advertise resumable streams, or refuses the resume
// (its retention has passed the cursor, or it is a new process that does
// not know the connection), the transport opens a new connection with
// the program's initialize, takes each open session back with
// session/resume and replayFrom start (v2) or session/load (v1), fails
// the requests that were waiting for an answer, and tells the program
// through OnRebuilt. It never reconnects after Close (a DELETE or a close
// frame), nor for a session after session/close.
type Reconnect struct {
	// MaxTries bounds the tries of one reconnection; zero means 8.
	MaxTries int
	// MinDelay is the delay before the second try, doubled for each next
	// one up to MaxDelay, each with up to half of it added at random;
	// zero means 50 ms.
	MinDelay time.Duration
	// MaxDelay bounds the delay between tries; zero means 5 s.
	MaxDelay time.Duration
	// KeepAlive is the interval of the server's keep-alives: a stream
	// silent for five intervals is dead; zero means DefaultKeepAlive.
	KeepAlive time.Duration
	// OnRebuilt, when set, is told of each session taken back by
	// session/resume or session/load on a new connection: its history
	// was sent again (as the agent replays it), and the turns in flight
	// may have ended without their answers.
	OnRebuilt func(Rebuilt)
}

// Rebuilt tells the program that a session was taken back on a new
// connection rather than resumed.
type Rebuilt struct {
	SessionID string
	// Err is why the session was not resumed (the server's refusal), and
	// Failed whether taking it back failed as well.
	Err    error
	Failed bool
}

// withDefaults returns r with each zero field set to its default.
func (r Reconnect) withDefaults() Reconnect {
	if r.MaxTries <= 0 {
		r.MaxTries = 8
	}
	if r.MinDelay <= 0 {
		r.MinDelay = 50 * time.Millisecond
	}
	if r.MaxDelay <= 0 {
		r.MaxDelay = 5 * time.Second
	}
	if r.KeepAlive <= 0 {
		r.KeepAlive = DefaultKeepAlive
	}
	return r
}

// delay returns how long to wait before try (0 for the first).
func (r *Reconnect) delay(try int) time.Duration {
	if try == 0 {
		return 0
	}
	d := r.MinDelay << min(try-1, 20)
	if d > r.MaxDelay || d <= 0 {
		d = r.MaxDelay
	}
	return d + rand.N(d/2+1)
}

// sleep waits d, or until ctx ends; it reports whether ctx is still
// going.
func sleep(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// book is what a reconnecting client keeps of its connection to take it
// back: the initialize it sent, the protocol version, the sessions with
// the parameters that made them, the requests awaiting an answer, and
// the answers it sent last.
type book struct {
	mu         sync.Mutex
	initParams []byte
	initID     string // the id of the program's initialize, until answered
	v1         bool
	resumable  bool
	sessions   map[string][]byte // session → the params that made or loaded it
	making     map[string][]byte // request id → session/new params, until answered
	inflight   map[string][]byte // request id → the request, until answered
	answers    [][]byte          // the last responses sent, oldest first
	ours       int               // the requests of the transport's own sent
}

// maxAnswers bounds the responses a client sends again after a resume.
const maxAnswers = 64

func newBook() *book {
	return &book{sessions: map[string][]byte{}, making: map[string][]byte{}, inflight: map[string][]byte{}}
}

// sent notes the client's message m, whose text is msg.
func (b *book) sent(m *message, msg []byte) {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch {
	case m.isInitialize():
		b.initParams = topMember(msg, "params")
		b.initID = m.idKey()
	case m.isRequest():
		b.inflight[m.idKey()] = msg
		switch m.method {
		case "session/new":
			b.making[m.idKey()] = topMember(msg, "params")
		case methodSessionLoad, methodSessionResume:
			if m.paramsSession != nil {
				b.sessions[*m.paramsSession] = topMember(msg, "params")
			}
		case "session/close":
			if m.paramsSession != nil {
				delete(b.sessions, *m.paramsSession)
			}
		}
	case m.isResponse():
		b.answers = append(b.answers, msg)
		if len(b.answers) > maxAnswers {
			b.answers = b.answers[1:]
		}
	}
}

// got notes the agent's message m, whose text is msg; it reports false
// for an answer to a request of the transport's own, which the program
// does not see.
func (b *book) got(m *message) bool {
	if !m.isResponse() {
		return true
	}
	if bytes.HasPrefix(m.id, []byte(`"acphttp:`)) {
		return false
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.inflight, m.idKey())
	if p, ok := b.making[m.idKey()]; ok {
		delete(b.making, m.idKey())
		if m.resultSession != "" {
			b.sessions[m.resultSession] = p
		}
	}
	return true
}

// initialized notes the answer to initialize: the protocol version, and
// whether the server's streams are resumable.
func (b *book) initialized(msg []byte) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.v1 = string(resultMember(msg, "protocolVersion")) == "1"
	b.resumable = bytes.Contains(msg, []byte(`"`+metaTransport+`"`)) && bytes.Contains(msg, []byte(`"resumable"`))
}

// isResumable reports whether the server advertised resumable streams.
func (b *book) isResumable() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.resumable
}

// resend returns the messages to send again after a resume over
// WebSocket: the requests still waiting for an answer, and the last
// answers (the server takes each once).
func (b *book) resend() [][]byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make([][]byte, 0, len(b.inflight)+len(b.answers))
	out = append(out, b.answers...)
	for _, msg := range b.inflight {
		out = append(out, msg)
	}
	return out
}

// ownID returns a new id for a request of the transport's own.
func (b *book) ownID(what string) []byte {
	b.mu.Lock()
	b.ours++
	n := b.ours
	b.mu.Unlock()
	id, _ := jsontext.AppendQuote(nil, "acphttp:"+what+":"+strconv.Itoa(n))
	return id
}

// initRequest returns the initialize request of a new connection, with
// the program's params and an id of the transport's own.
func (b *book) initRequest() []byte {
	b.mu.Lock()
	params := b.initParams
	b.mu.Unlock()
	msg := append([]byte(`{"jsonrpc":"2.0","id":`), b.ownID("initialize")...)
	msg = append(msg, `,"method":"initialize","params":`...)
	if params == nil {
		params = []byte("{}")
	}
	msg = append(msg, params...)
	return append(msg, '}')
}

// rebuild returns the sessions to take back and, for each, the request
// that does: session/resume with replayFrom start (v2), session/load (v1).
// It also takes the requests waiting for an answer, which the lost
// connection will not give: the caller fails them.
func (b *book) rebuild() (sessions []string, requests [][]byte, lost [][]byte) {
	b.mu.Lock()
	v1 := b.v1
	for s, p := range b.sessions {
		sessions = append(sessions, s)
		_ = p
	}
	params := make([][]byte, len(sessions))
	for i, s := range sessions {
		params[i] = b.sessions[s]
	}
	for k, msg := range b.inflight {
		m, _ := scan(msg)
		lost = append(lost, m.id)
		delete(b.inflight, k)
	}
	clear(b.making)
	b.answers = nil
	b.mu.Unlock()
	for i, s := range sessions {
		method := methodSessionResume
		if v1 {
			method = methodSessionLoad
		}
		msg := append([]byte(`{"jsonrpc":"2.0","id":`), b.ownID("rebuild")...)
		msg = append(msg, `,"method":"`+method+`","params":{"sessionId":`...)
		msg, _ = jsontext.AppendQuote(msg, s)
		for _, name := range []string{"cwd", "mcpServers", "additionalDirectories"} {
			if v := topMember(params[i], name); v != nil {
				msg = append(msg, ',')
				msg, _ = jsontext.AppendQuote(msg, name)
				msg = append(msg, ':')
				msg = append(msg, v...)
			}
		}
		if method == methodSessionLoad && topMember(params[i], "mcpServers") == nil {
			msg = append(msg, `,"mcpServers":[]`...)
		}
		if !v1 {
			msg = append(msg, `,"replayFrom":{"type":"start"}`...)
		}
		requests = append(requests, append(msg, "}}"...))
	}
	return sessions, requests, lost
}

// dedup remembers the cursors a stream has given, to drop a message given
// twice.
type dedup struct {
	known map[string]struct{}
	order []string
	last  string // the cursor of the last message taken
}

// maxCursors bounds the cursors a stream remembers.
const maxCursors = 4096

// seen reports whether the stream gave cursor before.
func (d *dedup) seen(cursor string) bool {
	_, dup := d.known[cursor]
	return cursor != "" && dup
}

// take remembers cursor, of a message taken.
func (d *dedup) take(cursor string) {
	if cursor == "" {
		return
	}
	if d.known == nil {
		d.known = map[string]struct{}{}
	}
	d.known[cursor] = struct{}{}
	d.order = append(d.order, cursor)
	if len(d.order) > maxCursors {
		delete(d.known, d.order[0])
		d.order = d.order[1:]
	}
	d.last = cursor
}

// messageCursor returns the cursor of msg, a message of a resumable
// stream, or "".
func messageCursor(msg []byte) string {
	if !bytes.Contains(msg, []byte(`"`+metaCursor+`"`)) {
		return ""
	}
	v := metaMember(msg, metaCursor)
	if len(v) < 2 || v[0] != '"' {
		return ""
	}
	return unquote(v)
}

// activity records when a stream last heard from its server. While the
// stream waits for the program to take its messages (paused), it reads
// nothing and its silence does not count.
type activity struct {
	mu     sync.Mutex
	last   time.Time
	paused bool
}

func (a *activity) touch() {
	a.mu.Lock()
	a.last = time.Now()
	a.mu.Unlock()
}

func (a *activity) pause() {
	a.mu.Lock()
	a.paused = true
	a.mu.Unlock()
}

func (a *activity) resume() {
	a.mu.Lock()
	a.paused, a.last = false, time.Now()
	a.mu.Unlock()
}

func (a *activity) since() time.Duration {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.paused {
		return 0
	}
	return time.Since(a.last)
}

// watchSilence calls dead once a has heard nothing for five keep-alive
// intervals, checking each quarter interval until ctx ends.
func watchSilence(ctx context.Context, a *activity, interval time.Duration, dead func()) {
	t := time.NewTicker(max(interval/4, time.Millisecond))
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if a.since() > 5*interval {
				dead()
				return
			}
		}
	}
}

// isInitAnswer reports whether m answers the program's initialize.
func (b *book) isInitAnswer(m *message) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.initID == "" || m.idKey() != b.initID {
		return false
	}
	b.initID = ""
	return true
}
