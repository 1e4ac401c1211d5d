package acphttp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"
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
		ctx, s.cancel = context.WithCancel(h.connCtx)
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
	var st streamState
	err := h.readSSE(ctx, id, session, func() { settle(nil) }, &st)
	if ctx.Err() != nil {
		return
	}
	if h.rc != nil {
		if err = h.resumeSSE(ctx, id, session, func() { settle(nil) }, &st, err); errors.Is(err, errReconnected) || ctx.Err() != nil {
			return
		}
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
func (h *httpClient) readSSE(ctx context.Context, id, session string, opened func(), st *streamState) error {
	header := map[string]string{"Accept": mimeEventStream, HeaderConnectionID: id}
	if session != "" {
		header[HeaderSessionID] = session
	}
	if st.last != "" {
		header[HeaderLastEventID] = st.last
	}
	var cancel context.CancelFunc
	stop := func() bool { return true }
	if h.rc != nil {
		// A stream silent for five keep-alive intervals is dead; a GET not
		// answered within that (and minPostWait) too.
		ctx, cancel = context.WithCancel(ctx)
		defer cancel()
		stop = time.AfterFunc(max(5*h.rc.KeepAlive, minPostWait), cancel).Stop
	}
	resp, err := h.request(ctx, http.MethodGet, nil, header)
	stop()
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return newHTTPError("ACP SSE connection failed", resp)
	}
	st.opened = true
	opened()
	var body io.Reader = resp.Body
	if h.rc != nil {
		st.act.touch()
		go watchSilence(ctx, &st.act, h.rc.KeepAlive, func() { st.silent.Store(true); cancel() })
		body = &touchReader{resp.Body, &st.act}
	}
	events := newSSEReader(body, h.max)
	for {
		data, err := events.next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		cursor := ""
		if events.idSeen {
			if h.rc != nil {
				// Only a transport that resumes keeps the cursors.
				cursor = events.id
			}
			if st.seen(cursor) {
				continue // given twice
			}
			if len(data) == 0 {
				st.take(cursor) // the stream's position
				continue
			}
		}
		m, err := scan(data)
		if err != nil {
			st.take(cursor)
			continue // as the TypeScript client, skip what is not an object
		}
		h.track(id, session, &m)
		if h.book != nil && !h.got(&m, data) {
			st.take(cursor)
			continue
		}
		st.act.pause()
		queued := h.in.put(ctx, oneLine(data), false)
		st.act.resume()
		if !queued {
			return ctx.Err()
		}
		st.take(cursor)
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
