//go:build unstable_mcp_over_acp || unstable

package acpmcp

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"
)

// ServeHTTP serves one MCP request to a re-exported server.
func (b *Bridge) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	serverID, herr := b.check(r)
	if herr != nil {
		writeError(w, herr, nil)
		return
	}
	if !b.admit() {
		writeError(w, &httpError{status: http.StatusTooManyRequests, code: CodeResourceLimitExceeded, message: "Too many outstanding MCP responses"}, nil)
		return
	}
	defer b.release()
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, b.opts.MaxRequestBodyBytes))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			writeError(w, &httpError{status: http.StatusRequestEntityTooLarge, code: CodeResourceLimitExceeded, message: "Request body too large"}, nil)
		}
		// Otherwise the client went away mid-upload: no one to answer.
		return
	}
	req, herr := parseHTTPRequest(body, r.Header)
	if herr != nil {
		writeError(w, herr, req.id)
		return
	}
	b.forward(r.Context(), w, serverID, req)
}

// httpRequest is one checked MCP request of a POST.
type httpRequest struct {
	id     json.RawMessage
	method string
	params json.RawMessage
}

// parseHTTPRequest checks a body against the MCP 2026-07-28 rules and its
// mirrored headers.
func parseHTTPRequest(body []byte, h http.Header) (httpRequest, *httpError) {
	reject := func(req httpRequest, code int64, message string) (httpRequest, *httpError) {
		return req, &httpError{status: 400, code: code, message: message}
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(body, &m); err != nil {
		if !json.Valid(body) {
			return reject(httpRequest{}, -32700, "Parse error")
		}
	}
	var req httpRequest
	if id := bytes.TrimSpace(m["id"]); len(id) > 0 && (id[0] == '"' || isSafeInteger(id)) {
		req.id = id
	}
	_, hasResult := m["result"]
	_, hasError := m["error"]
	if m == nil || string(m["jsonrpc"]) != `"2.0"` || hasResult || hasError || req.id == nil {
		return reject(req, -32600, "Expected one JSON-RPC request; batches, notifications and client responses are unsupported")
	}
	if !isString(m["method"]) || json.Unmarshal(m["method"], &req.method) != nil {
		return reject(req, -32600, "Missing method")
	}
	params, hasParams := m["params"]
	if hasParams && !isObject(params) {
		return reject(req, -32602, "Parameters must be an object")
	}
	req.params = params
	fields, _ := objectOf(params)
	meta, _ := objectOf(fields["_meta"])
	var version string
	if !isString(meta[MetaProtocolVersion]) || json.Unmarshal(meta[MetaProtocolVersion], &version) != nil {
		return reject(req, -32602, "params._meta must contain "+MetaProtocolVersion+" as a string")
	}
	if h.Get("Mcp-Protocol-Version") != version {
		return reject(req, -32020, "HeaderMismatch: MCP-Protocol-Version does not match params._meta")
	}
	if version != ProtocolVersion {
		req, herr := reject(req, -32022, "Unsupported protocol version")
		herr.data = map[string]any{"supported": []string{ProtocolVersion}, "requested": version}
		return req, herr
	}
	if !isObject(meta[MetaClientCapabilities]) {
		return reject(req, -32602, "params._meta must contain "+MetaClientCapabilities+" as an object")
	}
	if h.Get("Mcp-Method") != req.method {
		return reject(req, -32020, "HeaderMismatch: Mcp-Method does not match method")
	}
	if field := map[string]string{"tools/call": "name", "prompts/get": "name", "resources/read": "uri"}[req.method]; field != "" {
		var name string
		if !isString(fields[field]) || json.Unmarshal(fields[field], &name) != nil {
			return reject(req, -32602, "Missing params.name or params.uri")
		}
		if !matchesMirror(h.Values("Mcp-Name"), name) {
			return reject(req, -32020, "HeaderMismatch: Mcp-Name does not match request")
		}
	}
	for k := range h {
		if strings.HasPrefix(strings.ToLower(k), "mcp-param-") {
			// Tools are re-exported without x-mcp-header annotations.
			return reject(req, -32020, "HeaderMismatch: Mcp-Param headers are not supported by this adapter")
		}
	}
	if req.method == "initialize" || strings.HasPrefix(req.method, "notifications/") {
		req, herr := reject(req, -32601, "Method not found")
		herr.status = 404
		return req, herr
	}
	return req, nil
}

// isSafeInteger reports whether raw is an integer JSON number JavaScript
// holds exactly.
func isSafeInteger(raw []byte) bool {
	var n int64
	return decodeInteger(raw, &n) == nil && n <= 1<<53-1 && n >= -(1<<53-1)
}

// matchesMirror compares a mirrored Mcp-Name header with the body's value;
// the =?base64?…?= form must be canonical.
func matchesMirror(values []string, body string) bool {
	if len(values) != 1 {
		return false
	}
	header := values[0]
	encoded, ok := strings.CutPrefix(header, "=?base64?")
	if ok {
		encoded, ok = strings.CutSuffix(encoded, "?=")
	}
	if !ok {
		return header == body
	}
	decoded, err := base64.StdEncoding.DecodeString(encoded)
	return err == nil && base64.StdEncoding.EncodeToString(decoded) == encoded && string(decoded) == body
}

// forward sends the request through the caller and writes its response:
// JSON, or an event stream once a notification has come.
func (b *Bridge) forward(ctx context.Context, w http.ResponseWriter, serverID string, req httpRequest) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	requestID := generateID("mcp-http")
	q := &eventQueue{limit: b.opts.MaxBufferedResponseBytes, ready: make(chan struct{}, 1), cancel: cancel}
	type result struct {
		out Outcome
		err error
	}
	done := make(chan result, 1)
	go func() {
		out, err := b.caller.Request(ctx, serverID, req.method, req.params, &RequestOptions{
			RequestID: requestID,
			OnNotification: func(m Message) {
				params := rewriteSubscriptionID(m.Params, requestID, req.id)
				q.push(map[string]any{"jsonrpc": "2.0", "method": m.Method, "params": omitNil(params)})
			},
		})
		done <- result{out, err}
	}()
	var sse *sseWriter
	keepalive := time.NewTicker(15 * time.Second)
	defer keepalive.Stop()
	for {
		select {
		case <-q.ready:
			if q.overflowed() {
				<-done
				b.overflowed(w, sse, req)
				return
			}
			for _, ev := range q.take() {
				sse = startSSE(w, sse)
				sse.event(ev)
			}
		case <-keepalive.C:
			if sse != nil {
				sse.comment("keepalive")
			}
		case res := <-done:
			if q.overflowed() {
				// The overflow cancelled the request, which may end before
				// the queue's signal is read.
				b.overflowed(w, sse, req)
				return
			}
			if ctx.Err() != nil {
				return // the HTTP client went away: no one reads an answer
			}
			for _, ev := range q.take() {
				sse = startSSE(w, sse)
				sse.event(ev)
			}
			terminal, status := projectOutcome(res.out, res.err, req, requestID)
			if sse != nil {
				sse.event(terminal)
				return
			}
			body, _ := json.Marshal(terminal)
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			_, _ = w.Write(body)
			return
		}
	}
}

// overflowed ends the response of req whose notifications passed the
// buffer limit with an error event.
func (b *Bridge) overflowed(w http.ResponseWriter, sse *sseWriter, req httpRequest) {
	sse = startSSE(w, sse)
	sse.event(jsonRPCError(req.id, CodeResourceLimitExceeded, "MCP notification buffer overflow", nil))
}

// omitNil returns nil params as an absent member.
func omitNil(params json.RawMessage) any {
	if params == nil {
		return nil
	}
	return params
}

// eventQueue holds a response's notifications between the connection's
// reader, which must never block on an HTTP client, and the handler.
type eventQueue struct {
	mu       sync.Mutex
	events   []any
	bytes    int
	limit    int
	overflow bool
	ready    chan struct{}
	cancel   context.CancelFunc
}

func (q *eventQueue) push(ev map[string]any) {
	b, _ := json.Marshal(ev)
	q.mu.Lock()
	if !q.overflow {
		q.events = append(q.events, json.RawMessage(b))
		q.bytes += len(b)
		if q.bytes > q.limit {
			q.overflow = true
			q.cancel()
		}
	}
	q.mu.Unlock()
	select {
	case q.ready <- struct{}{}:
	default:
	}
}

func (q *eventQueue) take() []any {
	q.mu.Lock()
	defer q.mu.Unlock()
	events := q.events
	q.events, q.bytes = nil, 0
	return events
}

func (q *eventQueue) overflowed() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.overflow
}

// sseWriter writes an event stream.
type sseWriter struct {
	w http.ResponseWriter
}

// startSSE starts the stream on its first event.
func startSSE(w http.ResponseWriter, s *sseWriter) *sseWriter {
	if s != nil {
		return s
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	return &sseWriter{w: w}
}

func (s *sseWriter) event(v any) {
	b, _ := json.Marshal(v)
	_, _ = s.w.Write([]byte("event: message\ndata: " + string(b) + "\n\n"))
	http.NewResponseController(s.w).Flush()
}

func (s *sseWriter) comment(text string) {
	_, _ = s.w.Write([]byte(": " + text + "\n\n"))
	http.NewResponseController(s.w).Flush()
}
