package acphttp

import (
	"bytes"
	"context"
	"errors"
	"time"

	"github.com/go-json-experiment/json/jsontext"
)

// StateReporter is implemented by a Conn that knows the current state of
// its sessions' turns. After a resume, a resumable Server tells the
// client each resumed session's state: by default what the agent's own
// messages said (the last v2 state_update of the session; in v1, the
// session/prompt in flight and the permission requests it waits on). A
// Conn that implements StateReporter answers instead, as the session
// runtime that runs the turns can.
type StateReporter interface {
	// SessionState returns the session's state as the JSON of a v2
	// state_update (the update member of its session/update, such as
	// {"sessionUpdate":"state_update","state":"running"}), or for v1 the
	// advisory {"state", "promptRequestId"} of _meta["acp/turnState"]; ok
	// is false for a session it does not know.
	SessionState(sessionID string) (state []byte, ok bool)
}

// errGraceExpired is the reason of a connection closed because no client
// resumed its streams within the grace period.
var errGraceExpired = errors.New("acphttp: no client resumed the connection within its grace period")

// resumeConn is what a connection with resumable streams keeps besides.
type resumeConn struct {
	opts  *Resumable
	grace *time.Timer // ends the connection while its streams have no receiver
	sock  *rsock      // the WebSocket receiving the stream, over WebSocket
	v1    bool        // the agent answered initialize with protocol version 1

	seen      keySet   // the ids of the client's requests delivered
	seenOrder []string // in order, to forget the oldest

	sessions keySet            // the sessions the agent has spoken of
	states   map[string][]byte // session → its last v2 state_update
	prompts  map[string][]byte // session → the id of its v1 session/prompt in flight
	asks     map[string]string // agent request id → its session, while unanswered
}

// maxSeen bounds the request ids a connection remembers, to take a
// client's request sent again after a drop for the one delivered.
const maxSeen = 4096

// resumable sets c up for resumable streams: over both profiles the
// agent reads from an inbox and writes to the streams' mailboxes, so that
// a stream outlives the HTTP request or WebSocket that carries it.
func (c *conn) resumable(r *Resumable) {
	c.rs = &resumeConn{opts: r}
	c.stopWrites, c.cancelWrite = context.WithCancel(context.Background())
	c.in = newInbox()
	c.in.onClose = c.finish
	c.initial = make(chan []byte, 1)
	c.sessions = map[string]*mailbox{}
	c.main.log = newStreamLog(!c.ws)
}

// newMailbox returns a session stream's mailbox, numbered when c is
// resumable.
func (c *conn) newMailbox() *mailbox {
	mb := &mailbox{}
	if c.rs != nil {
		mb.log = newStreamLog(!c.ws)
	}
	return mb
}

// initialized returns msg, the agent's answer to initialize, with the
// resumable transport advertised in its result's _meta, and notes the
// protocol version.
func (r *resumeConn) initialized(msg []byte) []byte {
	if v := resultMember(msg, "protocolVersion"); string(v) == "1" {
		r.v1 = true
	}
	return withMeta(msg, "result", metaTransport, r.opts.advertisement())
}

// observeOut notes what an agent's message m, whose text is msg, says of
// its session's state; c.mu is held.
func (r *resumeConn) observeOut(m *message, msg []byte) {
	if m.isNotification() && m.paramsSession != nil {
		r.noteSession(*m.paramsSession)
	}
	switch {
	case !r.v1 && m.method == "session/update" && m.paramsSession != nil && bytes.Contains(msg, []byte(`"state_update"`)):
		if u := stateUpdate(msg); u != nil {
			if r.states == nil {
				r.states = map[string][]byte{}
			}
			r.states[*m.paramsSession] = u
		}
	case m.isRequest():
		if r.asks == nil {
			r.asks = map[string]string{}
		}
		session := ""
		if m.paramsSession != nil {
			session = *m.paramsSession
			r.noteSession(session)
		}
		r.asks[m.idKey()] = session
	case m.isResponse():
		r.noteSession(m.resultSession)
		for s, id := range r.prompts {
			if bytes.Equal(id, m.id) {
				delete(r.prompts, s)
				break
			}
		}
	}
}

// admit reports whether the client's message m goes to the agent: not a
// request whose id was delivered already, nor a response to an agent
// request already answered (a client sends them again when it cannot
// tell whether they arrived before a drop).
func (c *conn) admit(m *message) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	r := c.rs
	switch {
	case m.isRequest():
		key := m.idKey()
		if r.seen.has(key) {
			return false
		}
		r.seen.add(key)
		r.seenOrder = append(r.seenOrder, key)
		if len(r.seenOrder) > maxSeen {
			r.seen.remove(r.seenOrder[0])
			r.seenOrder = r.seenOrder[1:]
		}
		if m.method == "session/prompt" && m.paramsSession != nil {
			if r.prompts == nil {
				r.prompts = map[string][]byte{}
			}
			r.prompts[*m.paramsSession] = m.id
		}
	case m.isResponse():
		if _, ok := r.asks[m.idKey()]; !ok {
			return false
		}
		delete(r.asks, m.idKey())
	}
	return true
}

// stateOf returns the state of session for the message after a resume:
// the update of a v2 state_update, or v1's turn state.
func (c *conn) stateOf(session string) []byte {
	if sr, ok := c.agent.(StateReporter); ok {
		if s, ok := sr.SessionState(session); ok {
			return s
		}
	}
	r := c.rs
	if !r.v1 {
		if u := r.states[session]; u != nil {
			return u
		}
		return []byte(`{"sessionUpdate":"state_update","state":"idle"}`)
	}
	state := "idle"
	for _, s := range r.asks {
		if s == session {
			state = "requires_action"
		}
	}
	id := r.prompts[session]
	if id == nil {
		return []byte(`{"state":"idle"}`)
	}
	if state == "idle" {
		state = "running"
	}
	b := append([]byte(`{"state":"`), state...)
	b = append(b, `","promptRequestId":`...)
	b = append(b, id...)
	return append(b, '}')
}

// stateMessage returns the message that tells the client session's state
// after a resume: a v2 session/update with a state_update, or in v1 a
// stream/resumed notification with the advisory _meta["acp/turnState"].
func (c *conn) stateMessage(session string) []byte {
	sid, _ := jsontext.AppendQuote(nil, session)
	state := c.stateOf(session)
	if c.rs.v1 {
		b := append([]byte(`{"jsonrpc":"2.0","method":"stream/resumed","params":{"sessionId":`), sid...)
		b = append(b, `,"_meta":{"`+metaTurnState+`":`...)
		b = append(b, state...)
		return append(b, "}}}"...)
	}
	b := append([]byte(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":`), sid...)
	b = append(b, `,"update":`...)
	b = append(b, state...)
	return append(b, "}}"...)
}

// resumeLocked attaches a new receiver to mb, the stream of session,
// after the message of cursor ("" for none: a live stream from what is
// queued): the receiver it had, if any, ends; the messages sent after
// cursor are queued again, identical; the session's state follows them
// (for a resume by cursor). It returns the receiver's generation, or the
// reason a cursor is refused; c.mu is held.
func (c *conn) resumeLocked(mb *mailbox, session, cursor string, sessions []string) (uint64, string) {
	if cursor != "" {
		n, reason := mb.log.position(cursor, c.rs.opts, time.Now())
		if reason != "" {
			return 0, reason
		}
		c.takeOverLocked(mb)
		var size int
		mb.queue, size = mb.log.rewind(n, mb.queue)
		c.buffered += size
		for _, s := range sessions {
			msg := c.stateMessage(s)
			m, _ := scan(msg)
			c.enqueueLocked(mb, msg, &m)
		}
	} else {
		c.takeOverLocked(mb)
	}
	mb.receiver = true
	if c.rs.grace != nil {
		c.rs.grace.Stop()
		c.rs.grace = nil
	}
	c.broadcastLocked()
	mb.kickLocked()
	return mb.gen, ""
}

// takeOverLocked ends the receiver of mb, if it has one, for a new one;
// c.mu is held.
func (c *conn) takeOverLocked(mb *mailbox) {
	mb.gen++
	if mb.detach != nil {
		mb.detach()
		mb.detach = nil
	}
	if c.rs.sock != nil && mb == &c.main {
		c.rs.sock = nil
	}
	mb.receiver = false
}

// releaseResumable lets the receiver of generation gen go from mb, the
// stream of session, unless another has resumed the stream since. When
// the connection's stream has no receiver, the connection lives on for
// the grace period.
func (c *conn) releaseResumable(session string, mb *mailbox, gen uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if mb.gen != gen || c.closed {
		return
	}
	mb.gen++
	mb.receiver, mb.detach = false, nil
	if mb != &c.main || c.finished || c.rs.grace != nil {
		return
	}
	c.rs.grace = time.AfterFunc(c.rs.opts.Grace, func() {
		c.mu.Lock()
		expired := mb.gen == gen+1 && !c.main.receiver
		c.mu.Unlock()
		if expired {
			c.close(errGraceExpired)
		}
	})
}

// stateUpdate returns params.update of the session/update msg.
func stateUpdate(msg []byte) []byte {
	params := topMember(msg, "params")
	if params == nil {
		return nil
	}
	return topMember(params, "update")
}

// resultMember returns result[name] of msg, or nil.
func resultMember(msg []byte, name string) []byte {
	result := topMember(msg, "result")
	if result == nil {
		return nil
	}
	return topMember(result, name)
}

// topMember returns a copy of the member name of the JSON object obj, or
// nil.
func topMember(obj []byte, name string) []byte {
	s := decoders.Get().(*scanner)
	defer func() {
		s.r.Reset(nil)
		s.d.Reset(&s.r)
		decoders.Put(s)
	}()
	s.r.Reset(obj)
	s.d.Reset(&s.r)
	q, _ := jsontext.AppendQuote(nil, name)
	return memberOf(&s.d, string(q))
}

// noteSession notes a session the agent has spoken of: after a WebSocket
// resumes, the client learns the state of each.
func (r *resumeConn) noteSession(session string) {
	if session == "" || r.sessions.has(session) {
		return
	}
	r.sessions.add(session)
}

// knownSessionsLocked returns the sessions the agent has spoken of, in
// order; c.mu is held.
func (c *conn) knownSessionsLocked() []string {
	return c.rs.sessions.keys()
}

// keepAlive returns the interval of the keep-alives of c's streams.
func (c *conn) keepAlive() time.Duration {
	if c.rs != nil {
		return c.rs.opts.KeepAlive
	}
	return keepAliveInterval
}

// takeFor returns the next message of mb without waiting, or nil, for its
// receiver of generation gen: nil once another has resumed the stream.
func (c *conn) takeFor(mb *mailbox, gen uint64) []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	if mb.aborted || mb.gen != gen || len(mb.queue) == 0 {
		return nil
	}
	return c.dequeueLocked(mb)
}

// writeEvent writes msg, a message of mb, to buf as an SSE event.
func writeEvent(buf *bytes.Buffer, mb *mailbox, msg []byte) {
	if mb.log != nil && mb.log.framed {
		buf.Write(msg)
		return
	}
	buf.WriteString("data: ")
	buf.Write(msg)
	buf.WriteString("\n\n")
}
