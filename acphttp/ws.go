package acphttp

import (
	"context"
	"errors"
	"net/http"

	"github.com/coder/websocket"
)

// serveWebSocket upgrades r to a WebSocket that carries one ACP
// connection, one JSON-RPC message per text frame.
func (s *Server) serveWebSocket(w http.ResponseWriter, r *http.Request) {
	c := s.open(w, r, true)
	if c == nil {
		return
	}
	defer s.wg.Done()
	w.Header().Set(HeaderConnectionID, c.id)
	ws, err := websocket.Accept(w, r, &websocket.AcceptOptions{OriginPatterns: s.origins})
	if err != nil {
		// Accept has answered the request.
		c.close(nil)
		return
	}
	ws.SetReadLimit(int64(s.limits.MaxMessageBytes))
	sess := &wsSession{c: c, ws: ws, ready: make(chan struct{}), pumped: make(chan struct{})}
	sess.serve()
}

// wsSession is the WebSocket of one connection: its read loop hands the
// client's frames to the agent, and its pump sends the agent's output.
type wsSession struct {
	c           *conn
	ws          *websocket.Conn
	initialized bool
	ready       chan struct{} // closed once initialized: the pump starts
	pumped      chan struct{} // closed when the pump has ended
}

// wsCloseError is the reason of a connection closed with a WebSocket
// status of its own.
type wsCloseError struct {
	code   websocket.StatusCode
	reason string
}

func (e *wsCloseError) Error() string { return "acphttp: " + e.reason }

// serve starts the pump and reads frames until the socket or the
// connection closes.
func (w *wsSession) serve() {
	go w.pump()
	ctx := context.WithoutCancel(w.c.ctx)
	for {
		typ, data, err := w.ws.Read(ctx)
		if err != nil {
			break
		}
		if typ != websocket.MessageText {
			continue // binary frames are not ACP messages
		}
		if !w.handle(ctx, data) {
			break
		}
	}
	w.c.close(nil)
	<-w.pumped
}

// handle handles one text frame, and reports whether to read on.
func (w *wsSession) handle(ctx context.Context, data []byte) bool {
	m, err := scan(data)
	switch {
	case errors.Is(err, errBatch):
		return w.send(batchError)
	case errors.Is(err, errNotObject):
		return w.send(invalidRequest)
	case err != nil:
		return w.send(parseErrorReply)
	}
	if !w.initialized {
		return w.initialize(ctx, &m, data)
	}
	if m.isRequest() && m.isInitialize() {
		b := append([]byte(`{"jsonrpc":"2.0","id":`), m.id...)
		b = append(b, `,"error":{"code":-32600,"message":"Initialize not allowed on existing connection"}}`...)
		return w.send(b)
	}
	c := w.c
	route := ""
	if m.paramsSession != nil {
		route = *m.paramsSession
	}
	if route != "" && m.hasMethod {
		if err := c.limits.idTooLong("Session ID", route); err != nil {
			c.close(err)
			return false
		}
	}
	switch {
	case m.isRequest():
		if id, ok := m.stringID(); ok {
			if err := c.limits.idTooLong("Request ID", id); err != nil {
				c.close(err)
				return false
			}
		}
		if m.method == methodSessionLoad {
			route = ""
		}
		c.expect(m.idKey(), route)
	case m.isResponse():
		c.routeResponse(m.idKey())
	}
	if !m.isNotification() && !m.isResponse() {
		if c.waitRoom(ctx) != nil {
			return false
		}
	}
	return c.deliver(ctx, data) == nil
}

// initialize handles the first message, which must be an initialize
// request; the pump sends the agent's response.
func (w *wsSession) initialize(ctx context.Context, m *message, data []byte) bool {
	if m.isResponse() {
		return true
	}
	if !m.hasMethod {
		return w.send(invalidRequest)
	}
	if !m.isInitialize() {
		w.c.close(&wsCloseError{websocket.StatusProtocolError, "First message must be initialize"})
		return false
	}
	if string(m.id) == "null" {
		w.c.close(&wsCloseError{websocket.StatusProtocolError, "Initialize request must include an ID"})
		return false
	}
	w.c.initialID = m.id
	if _, err := w.c.initialize(ctx, data); err != nil {
		// The connection has closed already: answer all the same.
		_ = w.write(context.Background(), initializeFailed(m.id))
		w.c.close(&wsCloseError{websocket.StatusInternalError, "Initialize failed"})
		return false
	}
	w.initialized = true
	close(w.ready)
	return true
}

// pump sends the agent's output, once the connection is initialized,
// until the connection ends, then closes the socket for the reason it
// ended.
func (w *wsSession) pump() {
	defer close(w.pumped)
	c := w.c
	select {
	case <-w.ready:
	case <-c.aborted.Done():
		// Closed before it was initialized.
		c.mu.Lock()
		err := c.closeErr
		c.mu.Unlock()
		w.closeSocket(err)
		return
	}
	for {
		msg, err := c.next(context.Background(), &c.main, nil, nil)
		if err != nil || msg == nil {
			w.closeSocket(err)
			return
		}
		// A write under way when the connection closes stops soon after.
		if err := w.write(c.stopWrites, msg); err != nil {
			// A client that took none of the message in MaxOutputStall has
			// stalled; any other failure is a socket that has gone.
			reason := error(nil)
			if errors.Is(err, context.DeadlineExceeded) {
				reason = c.limits.stalled()
			}
			c.close(reason)
			w.closeSocket(reason)
			return
		}
	}
}

// send writes msg as one text frame, and reports whether it went: a
// client that takes none of it for MaxOutputStall has its socket closed,
// and a write under way when the connection closes stops writeGrace
// after.
func (w *wsSession) send(msg []byte) bool {
	return w.write(w.c.stopWrites, msg) == nil
}

// write writes msg as one text frame within MaxOutputStall.
func (w *wsSession) write(ctx context.Context, msg []byte) error {
	ctx, cancel := context.WithTimeout(ctx, w.c.limits.MaxOutputStall)
	defer cancel()
	return w.ws.Write(ctx, websocket.MessageText, msg)
}

// closeSocket closes the socket with the status of the connection's end
// for the reason err.
func (w *wsSession) closeSocket(err error) {
	var lerr *LimitError
	var cerr *wsCloseError
	switch {
	case errors.As(err, &cerr):
		w.closeWith(cerr.code, cerr.reason)
	case errors.As(err, &lerr):
		w.closeWith(websocket.StatusPolicyViolation, lerr.Text)
	case errors.Is(err, errShutdown):
		w.closeWith(websocket.StatusGoingAway, "Server shutting down")
	default:
		w.closeWith(websocket.StatusNormalClosure, "")
	}
}

// closeWith closes the socket with code and reason.
func (w *wsSession) closeWith(code websocket.StatusCode, reason string) {
	_ = w.ws.Close(code, reason)
}
