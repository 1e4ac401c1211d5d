package acphttp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/coder/websocket"
)

// dial opens a socket to the endpoint; with id, to resume the connection
// id. A transport that reconnects notes the server's pings.
func (w *wsClient) dial(ctx context.Context, id string) (*websocket.Conn, *http.Response, error) {
	h := w.header.Clone()
	if id != "" {
		if h == nil {
			h = http.Header{}
		}
		h.Set(HeaderConnectionID, id)
	}
	opts := &websocket.DialOptions{HTTPClient: w.hc, HTTPHeader: h}
	if w.rc != nil {
		opts.OnPingReceived = func(context.Context, []byte) bool {
			w.act.touch()
			return true
		}
	}
	ws, resp, err := websocket.Dial(ctx, w.url, opts)
	if err == nil {
		ws.SetReadLimit(int64(w.max))
	}
	return ws, resp, err
}

// watch takes ws for dead once it has heard nothing for five keep-alive
// intervals, until the transport ends or another socket replaces it.
func (w *wsClient) watch(ws *websocket.Conn) {
	ctx, cancel := context.WithCancel(w.ctx)
	w.mu.Lock()
	if w.unwatch != nil {
		w.unwatch()
	}
	w.unwatch = cancel
	// The dials of the sockets before this one end with them.
	if n := len(w.dials); n > 1 {
		for _, c := range w.dials[:n-1] {
			c()
		}
		w.dials = append(w.dials[:0], w.dials[n-1])
	}
	w.mu.Unlock()
	w.act.touch()
	w.wg.Add(1)
	go func() {
		defer w.wg.Done()
		watchSilence(ctx, &w.act, w.rc.KeepAlive, func() { _ = ws.CloseNow() })
	}()
}

// reconnectable reports whether a socket that failed with err is worth
// reconnecting to: not when the server closed it on purpose (a normal
// closure, a protocol error, a limit), which a new socket would meet
// again.
func reconnectable(err error) bool {
	var ce websocket.CloseError
	if errors.As(err, &ce) {
		switch ce.Code {
		case websocket.StatusGoingAway, websocket.StatusAbnormalClosure, websocket.StatusServiceRestart, websocket.StatusTryAgainLater:
			return true
		}
		return false
	}
	return true
}

// take settles one text message of the agent before the program gets it,
// on a transport that reconnects: it reports false for a message given
// twice, and for the answer to a request of the transport's own (which
// goes to its waiter), and the reason of a refused resume.
func (w *wsClient) take(data []byte) (bool, error) {
	cursor := messageCursor(data)
	if w.cursor.seen(cursor) {
		return false, nil
	}
	w.cursor.take(cursor)
	m, err := scan(data)
	if err != nil {
		return true, nil
	}
	if m.method == methodStreamResumeFailed {
		params := topMember(data, "params")
		return false, fmt.Errorf("acphttp: the server refused to resume the stream: %s", params)
	}
	if w.book.got(&m) {
		if m.isResponse() && w.book.isInitAnswer(&m) {
			w.book.initialized(data)
		}
		return true, nil
	}
	w.mu.Lock()
	ch := w.wait[m.idKey()]
	delete(w.wait, m.idKey())
	w.mu.Unlock()
	if ch != nil {
		ch <- topMember(data, "error") == nil
	}
	return false, nil
}

// sendReconnecting sends msg on the socket of now, once no reconnection
// is under way. A write that fails is not an error: the reader
// reconnects, and sends again the requests still waiting for an answer
// and the last answers.
func (w *wsClient) sendReconnecting(msg []byte) error {
	noted := false
	for {
		w.mu.Lock()
		g := w.gate
		w.mu.Unlock()
		if g != nil {
			select {
			case <-g:
			case <-w.ctx.Done():
				return ErrClosed
			}
		}
		if !noted {
			// The caller may reuse msg once Write returns.
			msg = bytes.Clone(msg)
			if m, err := scan(msg); err == nil {
				w.book.sent(&m, msg)
			}
			noted = true
		}
		w.mu.Lock()
		ws := w.ws
		w.mu.Unlock()
		if err := ws.Write(w.ctx, websocket.MessageText, msg); err != nil && w.ctx.Err() != nil {
			return ErrClosed
		}
		// Written to a socket that a reconnection has replaced since: it
		// may not have arrived, and the reconnection may not have sent it
		// again; the server takes a request or answer once.
		w.mu.Lock()
		replaced := w.ws != ws
		w.mu.Unlock()
		if !replaced {
			return nil
		}
	}
}

// openGate ends a reconnection: the program's messages go again.
func (w *wsClient) openGate() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.gate != nil {
		close(w.gate)
		w.gate = nil
	}
}

// reconnect replaces the socket that failed with cause: it resumes the
// connection on a new socket, with backoff, after the cursor of the last
// message taken, and sends again what may not have arrived; when the
// server does not resume streams or refuses, it takes the connection
// back on a new one (see rebuild). It returns the new socket.
func (w *wsClient) reconnect(cause error) (*websocket.Conn, error) {
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return nil, cause
	}
	if w.gate == nil {
		w.gate = make(chan struct{})
	}
	id := w.id
	w.mu.Unlock()
	if !w.book.isResumable() || w.cursor.last == "" {
		return w.rebuild(cause)
	}
	for try := 0; try < w.rc.MaxTries; try++ {
		if !sleep(w.ctx, w.rc.delay(try)) {
			return nil, ErrClosed
		}
		ws, resp, err := w.dialBounded(id)
		if err != nil {
			if resp != nil && (resp.StatusCode == http.StatusNotFound || resp.StatusCode == http.StatusGone) {
				return w.rebuild(fmt.Errorf("acphttp: resuming the WebSocket: %w", newHTTPError("ACP WebSocket upgrade failed", resp)))
			}
			cause = err
			continue
		}
		resume := []byte(`{"jsonrpc":"2.0","method":"` + methodStreamResume + `","params":{"cursors":{"connection":"` + w.cursor.last + `"}}}`)
		if err := ws.Write(w.ctx, websocket.MessageText, resume); err != nil {
			_ = ws.CloseNow()
			cause = err
			continue
		}
		// The socket first, then what to send again: a message written to
		// the old socket after this sees the new one and goes again itself.
		w.mu.Lock()
		w.ws = ws
		w.mu.Unlock()
		for _, msg := range w.book.resend() {
			_ = ws.Write(w.ctx, websocket.MessageText, msg)
		}
		w.watch(ws)
		w.openGate()
		return ws, nil
	}
	return nil, fmt.Errorf("acphttp: reconnecting the WebSocket: %w", cause)
}

// dialBounded dials with a bound on the handshake. The context of the
// dial lasts as long as the socket (net/http closes a protocol switch's
// connection when its request's context ends): until another socket
// replaces it (see watch), or the transport ends.
func (w *wsClient) dialBounded(id string) (*websocket.Conn, *http.Response, error) {
	ctx, cancel := context.WithCancel(w.ctx)
	t := time.AfterFunc(10*time.Second, cancel)
	ws, resp, err := w.dial(ctx, id)
	if !t.Stop() || err != nil {
		cancel()
		if err == nil {
			_ = ws.CloseNow()
			err = context.DeadlineExceeded
		}
		return nil, resp, err
	}
	w.mu.Lock()
	w.dials = append(w.dials, cancel)
	w.mu.Unlock()
	return ws, resp, nil
}

// rebuild takes the connection back on a new one after cause: it fails
// the requests waiting for an answer, opens a new connection with the
// program's initialize, and takes back each session with session/resume
// (v2) or session/load (v1), whose answers the reader hands over as it
// reads on; the program's messages wait till then.
func (w *wsClient) rebuild(cause error) (*websocket.Conn, error) {
	sessions, requests, lost := w.book.rebuild()
	for _, id := range lost {
		w.in.put(w.ctx, requestError(id, cause), true)
	}
	w.cursor = dedup{}
	var err error
	for try := 0; try < w.rc.MaxTries; try++ {
		if !sleep(w.ctx, w.rc.delay(try)) {
			return nil, ErrClosed
		}
		var ws *websocket.Conn
		if ws, err = w.initialize(); err != nil {
			continue
		}
		w.wg.Add(1)
		go func() {
			defer w.wg.Done()
			defer w.openGate()
			for i, s := range sessions {
				ok := w.call(ws, requests[i])
				if w.rc.OnRebuilt != nil {
					w.rc.OnRebuilt(Rebuilt{SessionID: s, Err: cause, Failed: !ok})
				}
			}
		}()
		return ws, nil
	}
	w.openGate()
	return nil, fmt.Errorf("acphttp: reconnecting after %v: %w", cause, err)
}

// initialize opens a new connection with the program's initialize params
// and makes its socket the transport's.
func (w *wsClient) initialize() (*websocket.Conn, error) {
	ws, resp, err := w.dialBounded("")
	if err != nil {
		return nil, err
	}
	msg := w.book.initRequest()
	m, _ := scan(msg)
	ctx, cancel := context.WithTimeout(w.ctx, rebuildWait)
	defer cancel()
	if err := ws.Write(ctx, websocket.MessageText, msg); err != nil {
		_ = ws.CloseNow()
		return nil, err
	}
	for {
		_, data, err := ws.Read(ctx)
		if err != nil {
			_ = ws.CloseNow()
			return nil, err
		}
		r, err := scan(data)
		if err != nil || !r.isResponse() || r.idKey() != m.idKey() {
			continue
		}
		if topMember(data, "error") != nil {
			_ = ws.CloseNow()
			return nil, fmt.Errorf("acphttp: initialize failed: %s", data)
		}
		w.book.initialized(data)
		w.cursor.take(messageCursor(data))
		w.mu.Lock()
		w.ws, w.id = ws, resp.Header.Get(HeaderConnectionID)
		w.mu.Unlock()
		w.watch(ws)
		return ws, nil
	}
}

// call sends a request of the transport's own on ws and waits for its
// answer, which the reader hands over; it reports whether it was a
// result.
func (w *wsClient) call(ws *websocket.Conn, msg []byte) bool {
	m, _ := scan(msg)
	ch := make(chan bool, 1)
	w.mu.Lock()
	if w.wait == nil {
		w.wait = map[string]chan bool{}
	}
	w.wait[m.idKey()] = ch
	w.mu.Unlock()
	if ws.Write(w.ctx, websocket.MessageText, msg) != nil {
		return false
	}
	t := time.NewTimer(rebuildWait)
	defer t.Stop()
	select {
	case ok := <-ch:
		return ok
	case <-t.C:
	case <-w.ctx.Done():
	}
	return false
}
