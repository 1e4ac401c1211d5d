package acphttp

import (
	"bytes"
	"context"
	"errors"
	"io"
	"sync"
	"time"
)

// mailbox queues the messages of one outbound stream until its receiver
// (an SSE stream) takes them.
type mailbox struct {
	queue    [][]byte
	receiver bool        // a receiver holds the stream
	finished bool        // nothing more will come: the receiver drains it and ends
	aborted  bool        // the connection closed: the receiver ends at once
	abortErr error       // why, when it broke a limit
	sock     *sockStream // the receiver, when it is a connection of its own
	log      *streamLog  // the stream's cursors and the messages it sent, when resumable
	gen      uint64      // counts the receivers, when resumable (see resume_conn.go)
	detach   func()      // ends the receiver, when another resumes the stream
}

// conn is one ACP connection of a Server: the agent's connection, the
// streams its output waits in, and the routes of the calls in flight.
type conn struct {
	s      *Server
	id     string
	ws     bool
	limits *Limits
	in     *inbox    // the agent's reader over Streamable HTTP
	sock   *wsSocket // the agent's reader and writer over WebSocket
	agent  Conn
	rs     *resumeConn // nil unless the server's streams are resumable

	// ctx ends when the connection does; it is the context of the request
	// that Connect receives.
	ctx    context.Context
	cancel context.CancelFunc
	// stopWrites ends writeGrace after the connection closes (not when its
	// agent ends and its streams drain): a write to an SSE stream still
	// under way then, one the client has stopped taking, stops. Nil over
	// WebSocket, whose socket does the same (see wsSocket.shut).
	stopWrites  context.Context
	cancelWrite context.CancelFunc

	initialID []byte      // the id of the initialize request
	initial   chan []byte // its response, or nil when the agent wrote another

	mu           sync.Mutex
	changed      chan struct{} // closed on the next change; nil while nothing waits for one
	lastProgress time.Time     // when the client last took output
	gotInitial   bool
	initFailed   bool // the agent wrote something else first
	closed       bool
	closeErr     error
	agentClosing bool       // closeAgent has started
	finished     bool       // the agent's output has ended
	lines        lineBuffer // the agent's unfinished line
	buffered     int        // bytes queued in the streams
	main         mailbox
	sessions     map[string]*mailbox
	unclaimed    int               // session streams without a receiver
	pending      map[string]string // inbound request id → session ("" for the connection stream)
	clientRoutes map[string]string // outbound request id → session
	// loads holds the session/load requests waiting for their answer
	// (request id → session), and loading how many wait per session: while
	// one waits, the session's messages go to the connection stream with
	// the answer, so that the replay keeps its place before it.
	loads   map[string]string
	loading map[string]int
}

// broadcastLocked wakes everything that waits for a change of c: a
// change that nothing waits for costs no channel.
func (c *conn) broadcastLocked() {
	if c.changed != nil {
		close(c.changed)
		c.changed = nil
	}
}

// waitLocked returns the channel closed on the next change of c, for a
// caller that waits on it without c.mu.
func (c *conn) waitLocked() <-chan struct{} {
	if c.changed == nil {
		c.changed = make(chan struct{})
	}
	return c.changed
}

// Write takes the agent's output: one message per line.
func (c *conn) Write(p []byte) (int, error) {
	if c.sock != nil {
		return c.sock.write(p)
	}
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return 0, ErrClosed
	}
	fits, _ := c.lines.split(p, c.limits.MaxMessageBytes, func(line []byte) error {
		c.outboundLocked(line)
		return nil
	})
	if !fits {
		c.closeLocked(exceeded("MaxMessageBytes", c.limits.MaxMessageBytes))
	}
	c.mu.Unlock()
	if c.rs != nil && c.ws {
		c.flushSocket()
	}
	// The agent goes no faster than its client reads.
	c.waitRoom(c.ctx)
	if c.isClosed() {
		return 0, ErrClosed
	}
	return len(p), nil
}

// outboundLocked routes one message of the agent to its stream, as the
// TypeScript SDK does: a response to the stream of the request it
// answers, a request or notification to the stream of the session in its
// params, anything else to the connection stream. msg is not kept: what
// keeps it keeps a copy (a resumable stream's, stamped with its cursor).
func (c *conn) outboundLocked(msg []byte) {
	if c.closed || c.initFailed {
		return
	}
	if !c.gotInitial {
		c.gotInitial = true
		m, err := scan(msg)
		if err != nil || !m.isResponse() || !bytes.Equal(m.id, c.initialID) {
			// What waits for the response answers and closes c.
			c.initFailed = true
			c.initial <- nil
			return
		}
		if c.rs != nil {
			msg = c.rs.initialized(msg) // a copy
		} else {
			msg = bytes.Clone(msg)
		}
		c.initial <- msg
		if c.rs != nil && c.ws {
			// Over a resumable WebSocket, the answer goes out on the stream.
			c.enqueueLocked(&c.main, msg, &m)
		}
		return
	}
	m, err := scan(msg)
	if err != nil {
		c.s.logf("acphttp: connection %s: dropping agent output that is not a JSON-RPC message: %v", c.id, err)
		return
	}
	route := ""
	if m.isResponse() {
		route = c.pending[m.idKey()]
		c.pending = forgetRoute(c.pending, m.idKey())
		c.loadAnsweredLocked(m.idKey())
		if m.resultSession != "" {
			// Never hand out a session id this connection would refuse.
			if err := c.limits.idTooLong("Session ID", m.resultSession); err != nil {
				c.closeLocked(err)
				return
			}
		}
	} else {
		if m.paramsSession != nil && c.loading[*m.paramsSession] == 0 {
			route = *m.paramsSession
		}
		if m.isRequest() {
			if c.clientRoutes == nil {
				c.clientRoutes = map[string]string{}
			}
			c.clientRoutes[m.idKey()] = route
		}
	}
	mb, lerr := c.streamLocked(route)
	if lerr != nil {
		c.closeLocked(lerr)
		return
	}
	c.enqueueLocked(mb, msg, &m)
}

// enqueueLocked queues a copy of msg, whose members are m, on mb,
// numbered when mb is resumable.
func (c *conn) enqueueLocked(mb *mailbox, msg []byte, m *message) {
	if mb.log != nil {
		c.rs.observeOut(m, msg)
		msg = mb.log.stamp(msg, m) // a copy
	} else {
		msg = bytes.Clone(msg)
	}
	if mb.queue == nil {
		// A drained queue lets its array go; a new one starts with room for
		// a batch, rather than growing to it by doubling.
		mb.queue = make([][]byte, 0, queueStart)
	}
	mb.queue = append(mb.queue, msg)
	c.buffered += len(msg)
	c.broadcastLocked()
	mb.kickLocked()
}

// queueStart is the room a stream's queue starts with.
const queueStart = 16

// streamLocked returns the stream of session route ("" for the connection
// stream), creating a session stream that buffers until a receiver comes.
func (c *conn) streamLocked(route string) (*mailbox, *LimitError) {
	if route == "" || c.ws {
		if route != "" {
			if err := c.limits.idTooLong("Session ID", route); err != nil {
				return nil, err
			}
		}
		return &c.main, nil
	}
	if mb := c.sessions[route]; mb != nil {
		return mb, nil
	}
	if err := c.limits.idTooLong("Session ID", route); err != nil {
		return nil, err
	}
	if c.unclaimed >= c.limits.MaxBufferedSessionStreams {
		return nil, exceeded("MaxBufferedSessionStreams", c.limits.MaxBufferedSessionStreams)
	}
	mb := c.newMailbox()
	c.sessions[route] = mb
	c.unclaimed++
	return mb, nil
}

// isClosed reports whether c has closed.
func (c *conn) isClosed() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.closed
}

// deliver hands one client message to the agent.
func (c *conn) deliver(ctx context.Context, msg []byte) error {
	line := append(oneLine(msg), '\n')
	c.mu.Lock()
	var agentDone <-chan struct{}
	if c.agent != nil {
		agentDone = c.agent.Done()
	}
	c.mu.Unlock()
	err := c.in.send(ctx, line, agentDone)
	if err == ErrClosed {
		c.checkAgent()
	}
	return err
}

// close closes c for the reason err: nil when the client or the server
// ended it, a *LimitError when it broke a limit.
func (c *conn) close(err error) {
	c.mu.Lock()
	c.closeLocked(err)
	c.mu.Unlock()
}

// closeLocked closes c: every stream ends, the agent's input ends, and the
// connection leaves its server.
func (c *conn) closeLocked(err error) {
	if c.closed {
		return
	}
	if err != nil {
		var lerr *LimitError
		if errors.As(err, &lerr) {
			c.s.logf("acphttp: closing connection %s: %v", c.id, err)
		}
	}
	c.closed, c.closeErr = true, err
	// A write to a stream's connection still under way writeGrace after
	// stops (a stream served by net/http stops with stopWrites).
	var socks []*sockStream
	abort := func(mb *mailbox) {
		mb.aborted, mb.abortErr, mb.queue = true, err, nil
		if mb.sock != nil {
			socks = append(socks, mb.sock)
		}
		mb.kickLocked()
	}
	abort(&c.main)
	for _, mb := range c.sessions {
		abort(mb)
	}
	c.sessions, c.pending, c.clientRoutes = nil, nil, nil
	c.buffered, c.unclaimed = 0, 0
	c.broadcastLocked()
	if c.sock != nil {
		c.sock.shut(err)
	} else {
		c.in.close(readError(err))
	}
	c.cancel()
	c.closeAgentLocked()
	if c.cancelWrite != nil {
		time.AfterFunc(writeGrace, c.cancelWrite)
	}
	if len(socks) > 0 {
		time.AfterFunc(writeGrace, func() {
			for _, st := range socks {
				_ = st.netc.SetWriteDeadline(time.Now())
			}
		})
	}
	c.s.forget(c)
}

// readError returns what the agent's reader returns once its connection
// has closed for the reason err: io.EOF when the client or the server
// ended it.
func readError(err error) error {
	if err == nil || err == errShutdown {
		return io.EOF
	}
	return err
}

// writeGrace is how long a write to the client under way when its
// connection closes may go on, so that a client that is reading gets the
// end of its stream or the close frame of its WebSocket.
const writeGrace = time.Second

// finish is called once the agent's connection has ended: the streams
// end once their receivers have taken what they hold.
func (c *conn) finish() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return
	}
	if c.sock != nil {
		// What the agent wrote has been written: the socket closes.
		c.closeLocked(nil)
		return
	}
	c.finished = true
	c.main.finished = true
	c.main.kickLocked()
	for _, mb := range c.sessions {
		mb.finished = true
		mb.kickLocked()
	}
	c.broadcastLocked()
	c.in.close(io.EOF)
	c.cancel()
	c.closeAgentLocked()
	c.s.forget(c)
}

// closeAgentLocked starts closing the agent, once, when the connection
// closes or finishes; c.mu is held. An open connection holds no goroutine
// of its own.
func (c *conn) closeAgentLocked() {
	if c.agent == nil || c.agentClosing {
		// Without an agent, open refused the connection.
		return
	}
	c.agentClosing = true
	go c.closeAgent()
}

// closeAgent closes the agent and returns once the agent has ended.
func (c *conn) closeAgent() {
	defer c.s.wg.Done()
	if closer, ok := c.agent.(io.Closer); ok {
		_ = closer.Close()
	}
	<-c.agent.Done()
}

// checkAgent finishes the connection when its agent has ended on its own,
// and reports whether it has. A generated connection that ends on its own
// closes its reader, which finishes the connection at once (see
// inbox.Close); this is for the other Conns, looked at whenever the
// connection is used.
func (c *conn) checkAgent() bool {
	c.mu.Lock()
	agent := c.agent
	c.mu.Unlock()
	if agent == nil {
		return false
	}
	select {
	case <-agent.Done():
		c.finish()
		return true
	default:
		return false
	}
}
