package acphttp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
)

// openSession opens the SSE stream of session on the connection id, unless
// it is open, and waits until it is.
func (h *httpClient) openSession(id, session string) error {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return ErrClosed
	}
	if err := h.sessionErrs[session]; err != nil {
		h.mu.Unlock()
		return err
	}
	s := h.sessions[session]
	if s == nil && h.known[session] {
		h.mu.Unlock()
		return nil
	}
	if s == nil {
		s = &sessionStream{ready: make(chan struct{})}
		var ctx context.Context
		ctx, s.cancel = context.WithCancel(h.ctx)
		h.known[session] = true
		h.sessions[session] = s
		h.wg.Add(1)
		go func() {
			defer s.cancel()
			h.openSSE(ctx, id, session, s)
		}()
	}
	h.mu.Unlock()
	select {
	case <-s.ready:
		return s.err
	case <-h.ctx.Done():
		return ErrClosed
	}
}

// openSSE opens the SSE stream of session ("" for the connection's) and
// queues its messages until it or ctx ends. s, for a session, learns
// whether it opened.
func (h *httpClient) openSSE(ctx context.Context, id, session string, s *sessionStream) {
	defer h.wg.Done()
	settled := false
	settle := func(err error) {
		if s != nil && !settled {
			settled = true
			s.err = err
			close(s.ready)
		}
	}
	defer func() {
		if s != nil {
			h.mu.Lock()
			if h.sessions[session] == s {
				delete(h.sessions, session)
			}
			h.mu.Unlock()
		}
		settle(errors.New("acphttp: the session's SSE stream closed before opening"))
	}()
	err := h.readSSE(ctx, id, session, func() { settle(nil) })
	if ctx.Err() != nil {
		return
	}
	if err != nil && !errors.As(err, new(*HTTPError)) && !errors.Is(err, errMessageTooLarge) {
		which := "connection's"
		if session != "" {
			which = "session's"
		}
		err = fmt.Errorf("acphttp: the %s SSE stream failed: %w", which, err)
	}
	if err != nil {
		settle(err)
		if session != "" && isConflict(err) {
			h.failSession(session, err)
		} else {
			h.fail(err)
		}
		return
	}
	if session == "" {
		h.fail(errors.New("acphttp: the connection's SSE stream closed"))
		return
	}
	// Responses to the session's calls in flight can no longer come; the
	// next message of the session opens its stream again.
	h.mu.Lock()
	delete(h.known, session)
	h.mu.Unlock()
	h.rejectPending(session, errors.New("acphttp: the session's SSE stream closed"))
}

// readSSE GETs a stream and queues its messages; it returns nil at the
// end of the stream.
func (h *httpClient) readSSE(ctx context.Context, id, session string, opened func()) error {
	header := map[string]string{"Accept": mimeEventStream, HeaderConnectionID: id}
	if session != "" {
		header[HeaderSessionID] = session
	}
	resp, err := h.request(ctx, http.MethodGet, nil, header)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return newHTTPError("ACP SSE connection failed", resp)
	}
	opened()
	events := newSSEReader(resp.Body, h.max)
	for {
		data, err := events.next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		m, err := scan(data)
		if err != nil {
			continue // as the TypeScript client, skip what is not an object
		}
		h.track(id, session, &m)
		h.in.put(ctx, oneLine(data), false)
	}
}

// track notes what an agent message m, from the stream of session, means
// for routing: a result with a sessionId opens that session's stream, an
// agent request on a session is answered on it, and a response settles a
// pending request.
func (h *httpClient) track(id, session string, m *message) {
	if m.resultSession != "" {
		s := m.resultSession
		h.wg.Add(1)
		go func() {
			defer h.wg.Done()
			_ = h.openSession(id, s)
		}()
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if session != "" && m.isRequest() {
		h.responseSessions[m.idKey()] = session
	}
	if m.isResponse() {
		delete(h.pendingRequests, m.idKey())
	}
}

// failSession fails session after the server refused its stream (409):
// its stream closes and its pending requests fail, until session/load or
// session/resume reattaches it. The connection and other sessions go on.
func (h *httpClient) failSession(session string, err error) {
	h.mu.Lock()
	h.sessionErrs[session] = err
	delete(h.known, session)
	s := h.sessions[session]
	delete(h.sessions, session)
	h.mu.Unlock()
	if s != nil {
		s.cancel()
	}
	h.rejectPending(session, err)
}

// rejectPending fails the pending requests of session with err.
func (h *httpClient) rejectPending(session string, err error) {
	h.mu.Lock()
	var ids [][]byte
	for k, p := range h.pendingRequests {
		if p.session == session {
			delete(h.pendingRequests, k)
			ids = append(ids, p.id)
		}
	}
	h.mu.Unlock()
	for _, id := range ids {
		h.in.put(h.ctx, requestError(id, err), true)
	}
}
