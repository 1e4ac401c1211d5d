package acphttp

import (
	"bytes"
	"errors"
	"io"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gobwas/ws"
	"github.com/gobwas/ws/wsutil"
)

// serveWebSocket upgrades r to a WebSocket that carries one ACP
// connection, one JSON-RPC message per text frame. The handler returns
// once the socket is upgraded: the agent's connection reads the client's
// frames from the socket in its own reading goroutine and writes its
// output to it, so that an idle connection holds no goroutine of its own.
func (s *Server) serveWebSocket(w http.ResponseWriter, r *http.Request) {
	c := s.open(w, r, true)
	if c == nil {
		return
	}
	w.Header().Set(HeaderConnectionID, c.id)
	netc, rw, _, err := ws.HTTPUpgrader{Header: w.Header()}.Upgrade(r, w)
	if err != nil {
		// Upgrade has answered the request.
		if netc != nil {
			netc.Close()
		}
		c.sock.start(nil, nil)
		c.close(nil)
		return
	}
	var pre *bytes.Reader
	if n := rw.Reader.Buffered(); n > 0 {
		// Frames the client sent right after its request.
		b, _ := rw.Reader.Peek(n)
		pre = bytes.NewReader(bytes.Clone(b))
	}
	c.sock.start(netc, pre)
}

// wsSocket is the WebSocket of one connection. Its Read is the agent's
// reader: it reads the client's frames from the socket and hands the
// agent the text of each message, one per line, answering what is not an
// ACP message itself. Its write takes the agent's output: each Write of
// the agent's connection, which joins the messages queued together, is
// one write to the socket, of one frame per message.
type wsSocket struct {
	c     *conn
	ready chan struct{} // closed once upgraded, or failed
	netc  net.Conn      // nil when the upgrade failed
	rmu   sync.Mutex    // held while reading the socket
	in    wsutil.Reader
	pre   *bytes.Reader // what the client sent right after its request, read first

	parking parkedSock

	// The reader's own state.
	initialized bool
	cur         []byte // the rest of the message being read
	readEnded   chan struct{}
	endRead     sync.Once

	wmu     sync.Mutex // held while writing to the socket
	lines   lineBuffer // the agent's unfinished line, under wmu
	closing atomic.Bool
}

func newWSSocket(c *conn) *wsSocket {
	return &wsSocket{c: c, ready: make(chan struct{}), readEnded: make(chan struct{})}
}

// start attaches the upgraded socket netc, read after pre (when not nil),
// or nil when the upgrade failed.
func (w *wsSocket) start(netc net.Conn, pre *bytes.Reader) {
	w.netc, w.pre = netc, pre
	if netc != nil {
		var src io.Reader = netc
		if pre != nil {
			src = io.MultiReader(pre, netc)
		}
		w.parking.init(netc)
		w.in = wsutil.Reader{
			Source:         src,
			State:          ws.StateServerSide,
			MaxMessageSize: int64(w.c.limits.MaxMessageBytes),
			OnIntermediate: w.intermediate,
		}
	}
	close(w.ready)
}

// wsCloseError is the reason of a connection closed with a WebSocket
// status of its own.
type wsCloseError struct {
	code   ws.StatusCode
	reason string
}

func (e *wsCloseError) Error() string { return "acphttp: " + e.reason }

// Read returns the client's messages, one per line; once the connection
// has closed, the reason (io.EOF when the client or the server ended it).
// It is not safe for concurrent use.
func (w *wsSocket) Read(p []byte) (int, error) {
	w.rmu.Lock()
	defer w.rmu.Unlock()
	return w.read(p)
}

// read is Read, with w.rmu held.
func (w *wsSocket) read(p []byte) (int, error) {
	for len(w.cur) == 0 {
		if err := w.next(); err != nil {
			w.endRead.Do(func() { close(w.readEnded) })
			return 0, err
		}
	}
	n := copy(p, w.cur)
	w.cur = w.cur[n:]
	if len(w.cur) == 0 {
		w.cur = nil // an idle connection keeps no message
	}
	return n, nil
}

// ReadOrPark is Read, except that when no frame waits in the socket it
// parks the reader (returns parked), and the server's poller calls resume
// once one arrives, or when the socket closes.
func (w *wsSocket) ReadOrPark(p []byte, resume func()) (n int, parked bool, err error) {
	w.rmu.Lock()
	defer w.rmu.Unlock()
	if len(w.cur) == 0 && w.park(resume) {
		return 0, true, nil
	}
	n, err = w.read(p)
	return n, false, err
}

// park parks the reader, when it can (see parkedSock.park), at the
// start of a frame, once what came with the upgrade request is read.
func (w *wsSocket) park(resume func()) bool {
	<-w.ready
	if w.netc == nil || w.pre != nil && w.pre.Len() > 0 {
		return false
	}
	return w.parking.park(&w.c.s.poll, resume)
}

// Close is called by the agent's connection when it ends: the socket
// closes.
func (w *wsSocket) Close() error {
	w.c.finish()
	return nil
}

// next reads frames until one carries a message for the agent, which it
// leaves in w.cur.
func (w *wsSocket) next() error {
	<-w.ready
	for {
		if err := w.closedErr(); err != nil {
			return err
		}
		if w.netc == nil {
			return io.EOF
		}
		h, err := w.in.NextFrame()
		if err != nil {
			return w.readFailed(err)
		}
		if h.OpCode.IsControl() {
			payload, err := io.ReadAll(&w.in)
			if err == nil {
				err = w.control(h, payload)
			}
			if err != nil {
				return w.readFailed(err)
			}
			continue
		}
		if h.OpCode != ws.OpText {
			// Binary frames are not ACP messages.
			if err := w.in.Discard(); err != nil {
				return w.readFailed(err)
			}
			continue
		}
		data, err := io.ReadAll(&w.in)
		if err != nil {
			return w.readFailed(err)
		}
		if line := w.handle(data); line != nil {
			w.cur = line
			return nil
		}
	}
}

// closedErr returns what Read returns once the connection has closed, or
// nil while it is open.
func (w *wsSocket) closedErr() error {
	c := w.c
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.closed {
		return nil
	}
	return readError(c.closeErr)
}

// readFailed closes the connection for the error err of reading the
// socket, and returns what Read returns.
func (w *wsSocket) readFailed(err error) error {
	switch {
	case errors.Is(err, wsutil.ErrMessageTooLarge), errors.Is(err, wsutil.ErrFrameTooLarge):
		w.c.close(&wsCloseError{ws.StatusMessageTooBig, "Message too big"})
	case errors.As(err, new(ws.ProtocolError)):
		w.c.close(&wsCloseError{ws.StatusProtocolError, err.Error()})
	default:
		// The client closed the socket, or it failed.
		w.c.close(nil)
	}
	return w.closedErr()
}

// intermediate handles a control frame between the frames of a message.
func (w *wsSocket) intermediate(h ws.Header, r io.Reader) error {
	payload, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	return w.control(h, payload)
}

// control answers a control frame: a ping with its pong, a close frame
// by closing the connection (its close frame answers the client's).
func (w *wsSocket) control(h ws.Header, payload []byte) error {
	switch h.OpCode {
	case ws.OpPing:
		return w.sendFrame(ws.NewPongFrame(payload))
	case ws.OpClose:
		w.c.close(nil)
		return io.EOF
	}
	return nil
}

// handle handles one text frame: it returns the line to hand to the
// agent, or nil when it answered the frame itself or closed the
// connection.
func (w *wsSocket) handle(data []byte) []byte {
	m, err := scan(data)
	switch {
	case errors.Is(err, errBatch):
		w.reply(batchError)
		return nil
	case errors.Is(err, errNotObject):
		w.reply(invalidRequest)
		return nil
	case err != nil:
		w.reply(parseErrorReply)
		return nil
	}
	c := w.c
	if !w.initialized {
		return w.initialize(&m, data)
	}
	if m.isRequest() && m.isInitialize() {
		b := append([]byte(`{"jsonrpc":"2.0","id":`), m.id...)
		w.reply(append(b, `,"error":{"code":-32600,"message":"Initialize not allowed on existing connection"}}`...))
		return nil
	}
	if m.paramsSession != nil && m.hasMethod {
		if err := c.limits.idTooLong("Session ID", *m.paramsSession); err != nil {
			c.close(err)
			return nil
		}
	}
	if id, ok := m.stringID(); ok && m.isRequest() {
		if err := c.limits.idTooLong("Request ID", id); err != nil {
			c.close(err)
			return nil
		}
	}
	return append(oneLine(data), '\n')
}

// initialize handles the first message, which must be an initialize
// request.
func (w *wsSocket) initialize(m *message, data []byte) []byte {
	c := w.c
	switch {
	case m.isResponse():
		return nil
	case !m.hasMethod:
		w.reply(invalidRequest)
		return nil
	case !m.isInitialize():
		c.close(&wsCloseError{ws.StatusProtocolError, "First message must be initialize"})
		return nil
	case string(m.id) == "null":
		c.close(&wsCloseError{ws.StatusProtocolError, "Initialize request must include an ID"})
		return nil
	case !m.validRequestID(c.limits.MaxIDLength):
		w.reply(invalidRequest)
		return nil
	}
	c.mu.Lock()
	failed := c.initFailed
	if !failed {
		c.initialID = m.id
	}
	c.mu.Unlock()
	if failed {
		w.initializeFailed(m.id)
		return nil
	}
	w.initialized = true
	return append(oneLine(data), '\n')
}

// initializeFailed answers the initialize request with id, which the
// agent did not answer first, and closes the connection.
func (w *wsSocket) initializeFailed(id []byte) {
	w.reply(initializeFailed(id))
	w.c.close(&wsCloseError{ws.StatusInternalServerError, "Initialize failed"})
}

// reply sends msg, a message of the server's own, as one text frame.
func (w *wsSocket) reply(msg []byte) {
	_ = w.sendFrame(ws.NewTextFrame(msg))
}

// shut starts closing the socket for the reason err, the connection's;
// c.mu is held. A write under way stops writeGrace after, the close frame
// goes out, and the socket closes once the client has answered it or
// writeGrace has passed.
func (w *wsSocket) shut(err error) {
	w.closing.Store(true)
	w.c.s.wg.Add(1)
	go w.closeSocket(err)
}

// closeSocket sends the close frame of the connection's end for the
// reason err, waits for the client's, and closes the socket.
func (w *wsSocket) closeSocket(err error) {
	defer w.c.s.wg.Done()
	<-w.ready
	if w.netc == nil {
		return
	}
	_ = w.netc.SetWriteDeadline(time.Now().Add(writeGrace))
	code, reason := closeStatus(err)
	_ = w.sendFrame(ws.NewCloseFrame(ws.NewCloseFrameBody(code, reason)))
	// The client answers with its close frame, which ends the reader; one
	// that does not is not waited for past writeGrace.
	_ = w.netc.SetReadDeadline(time.Now().Add(writeGrace))
	resume := w.parking.stop(&w.c.s.poll)
	if w.rmu.TryLock() {
		// No reader is reading (it is parked, or it has stopped reading):
		// the client's close frame is read here, and a parked reader,
		// started again, finds the socket closed.
		w.awaitClose()
		_ = w.netc.Close()
		w.rmu.Unlock()
	} else {
		timer := time.NewTimer(writeGrace)
		select {
		case <-w.readEnded:
		case <-timer.C:
		}
		timer.Stop()
		_ = w.netc.Close()
	}
	if resume != nil {
		resume()
	}
}

// awaitClose reads the client's frames until its close frame, or the
// read deadline.
func (w *wsSocket) awaitClose() {
	for {
		h, err := w.in.NextFrame()
		if err != nil {
			return
		}
		if err := w.in.Discard(); err != nil || h.OpCode == ws.OpClose {
			return
		}
	}
}

// closeStatus returns the status and reason of the close frame of a
// connection closed for the reason err.
func closeStatus(err error) (ws.StatusCode, string) {
	var lerr *LimitError
	var cerr *wsCloseError
	switch {
	case errors.As(err, &cerr):
		return cerr.code, cerr.reason
	case errors.As(err, &lerr):
		return ws.StatusPolicyViolation, lerr.Text
	case errors.Is(err, errShutdown):
		return ws.StatusGoingAway, "Server shutting down"
	}
	return ws.StatusNormalClosure, ""
}
