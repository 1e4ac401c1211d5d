package acphttp

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
)

// statusClientClosedRequest is the status of a request its client gave up
// on, as the TypeScript SDK answers it.
const statusClientClosedRequest = 499

// servePost hands the client message in r's body to its connection, or
// starts a connection for an initialize request.
func (s *Server) servePost(w http.ResponseWriter, r *http.Request) {
	mt, _, _ := strings.Cut(r.Header.Get("Content-Type"), ";")
	if !strings.EqualFold(strings.TrimSpace(mt), mimeJSON) {
		textResponse(w, http.StatusUnsupportedMediaType, "Unsupported Media Type")
		return
	}
	body, ok := s.readBody(w, r)
	if !ok {
		return
	}
	m, err := scan(body)
	switch {
	case errors.Is(err, errBatch):
		// ACP does not use JSON-RPC batches: one -32600 answers the array.
		jsonResponse(w, http.StatusBadRequest, batchError)
		return
	case errors.Is(err, errNotObject):
		textResponse(w, http.StatusBadRequest, "Invalid JSON-RPC message")
		return
	case err != nil:
		textResponse(w, http.StatusBadRequest, "Invalid JSON")
		return
	}
	if m.isInitialize() {
		if r.Header.Get(HeaderConnectionID) != "" {
			textResponse(w, http.StatusBadRequest, "Initialize not allowed on existing connection")
			return
		}
		s.initialize(w, r, &m, body)
		return
	}
	c := s.lookup(w, r)
	if c == nil {
		return
	}
	defer s.wg.Done()
	if c.rs != nil {
		if !c.admit(&m) {
			// Sent again after a drop, and delivered already.
			w.WriteHeader(http.StatusAccepted)
			return
		}
		// A message taken is delivered, whether or not its client waits.
		r = r.WithContext(c.ctx)
	}
	status, text := c.post(r, &m, body)
	if status != http.StatusAccepted {
		textResponse(w, status, text)
		return
	}
	w.WriteHeader(http.StatusAccepted)
}

// readBody reads r's body within MaxRequestBodyBytes, or answers 413.
func (s *Server) readBody(w http.ResponseWriter, r *http.Request) ([]byte, bool) {
	max := s.limits.MaxRequestBodyBytes
	tooLarge := "Request body exceeds " + strconv.FormatInt(max, 10) + " bytes"
	if r.ContentLength > max {
		textResponse(w, http.StatusRequestEntityTooLarge, tooLarge)
		return nil, false
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, max))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			textResponse(w, http.StatusRequestEntityTooLarge, tooLarge)
		} else {
			textResponse(w, http.StatusBadRequest, "Invalid JSON")
		}
		return nil, false
	}
	return body, true
}

// initialize starts a connection with the initialize request m, whose
// text is body, and answers with the agent's response and the id of the
// new connection.
func (s *Server) initialize(w http.ResponseWriter, r *http.Request, m *message, body []byte) {
	if string(m.id) == "null" {
		textResponse(w, http.StatusBadRequest, "Initialize request must include an ID")
		return
	}
	if !m.validRequestID(s.limits.MaxIDLength) {
		jsonResponse(w, http.StatusBadRequest, invalidRequest)
		return
	}
	if r.Context().Err() != nil {
		textResponse(w, statusClientClosedRequest, "Request aborted")
		return
	}
	c := s.open(w, r, false)
	if c == nil {
		return
	}
	c.initialID = m.id
	resp, err := c.initialize(r.Context(), body)
	switch {
	case err == nil:
		w.Header().Set(HeaderConnectionID, c.id)
		jsonResponse(w, http.StatusOK, resp)
	case r.Context().Err() != nil:
		c.close(nil)
		textResponse(w, statusClientClosedRequest, "Request aborted")
	default:
		c.close(nil)
		jsonResponse(w, http.StatusInternalServerError, initializeFailed(m.id))
	}
}

// initialize hands the agent its initialize request and returns the
// agent's response.
func (c *conn) initialize(ctx context.Context, body []byte) ([]byte, error) {
	if err := c.deliver(ctx, body); err != nil {
		return nil, err
	}
	select {
	case resp := <-c.initial:
		if resp == nil {
			return nil, errors.New("the agent did not answer initialize first")
		}
		return resp, nil
	case <-c.ctx.Done():
		return nil, ErrClosed
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// initializeFailed is the response to an initialize request with id that
// the agent did not answer. It says nothing of why: that stays on the
// server.
func initializeFailed(id []byte) []byte {
	b := append([]byte(`{"jsonrpc":"2.0","id":`), id...)
	return append(b, `,"error":{"code":-32603,"message":"Initialize failed"}}`...)
}

// post hands the client's message m, whose text is body, to the agent,
// checking its Acp-Session-Id as the TypeScript SDK does. It returns 202,
// or the status and text of the refusal.
func (c *conn) post(r *http.Request, m *message, body []byte) (int, string) {
	header := r.Header.Get(HeaderSessionID)
	if m.isResponse() {
		route := c.peekResponse(m.idKey())
		if route != "" && header == "" {
			return http.StatusBadRequest, "Missing Acp-Session-Id"
		}
		if route != "" && header != route {
			return http.StatusBadRequest, "Mismatched Acp-Session-Id"
		}
		c.routeResponse(m.idKey())
		return c.hand(r.Context(), body)
	}
	if (sessionScoped[m.method] || m.paramsSession != nil) && header == "" {
		return http.StatusBadRequest, "Missing Acp-Session-Id"
	}
	if header != "" && m.paramsSession != nil && header != *m.paramsSession {
		return http.StatusBadRequest, "Mismatched Acp-Session-Id"
	}
	route := header
	if route == "" && m.paramsSession != nil {
		route = *m.paramsSession
	}
	if route != "" {
		if err := c.limits.idTooLong("Session ID", route); err != nil {
			return http.StatusBadRequest, err.Text
		}
	}
	if !m.isNotification() {
		if id, ok := m.stringID(); ok {
			if err := c.limits.idTooLong("Request ID", id); err != nil {
				return http.StatusBadRequest, err.Text
			}
		}
		// Whatever the agent answers adds output: wait until the client has
		// read enough of what it has.
		if err := c.waitRoom(r.Context()); err != nil {
			return statusClientClosedRequest, "Request aborted"
		}
	}
	if m.isRequest() {
		if m.method == methodSessionLoad {
			// session/load's replay and response go to the connection stream.
			if route != "" {
				c.expectLoad(m.idKey(), route)
			}
			route = ""
		}
		c.expect(m.idKey(), route)
	}
	return c.hand(r.Context(), body)
}

// hand delivers body to the agent and returns the status of the POST.
func (c *conn) hand(ctx context.Context, body []byte) (int, string) {
	switch err := c.deliver(ctx, body); {
	case err == nil:
		return http.StatusAccepted, ""
	case ctx.Err() != nil:
		return statusClientClosedRequest, "Request aborted"
	default:
		return http.StatusNotFound, "Unknown Acp-Connection-Id"
	}
}
