//go:build unstable_mcp_over_acp || unstable

package acpmcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ServerHandler returns a [Handler] that serves s, a server of the Go MCP
// SDK, through the SDK's own request pipeline: its stateless Streamable HTTP
// handler, called in process with a request that never touches the network.
// Discovery (server/discover), tools, resources, prompts, capability checks
// and the notifications a handler sends while it runs (progress, logging)
// behave as they do over the SDK's HTTP transport; the notifications reach
// the caller as "mcp/message" notifications scoped to the request.
//
// Over ACP the request carries no HTTP origin or credentials. Tools whose
// input schema has x-mcp-header annotations are rejected by the SDK, as for
// an HTTP client that leaves the mirrored headers out.
func ServerHandler(s *mcp.Server) Handler {
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{
		Stateless:                    true,
		DisableLocalhostProtection:   true,
		PropagateRequestCancellation: true,
		// ACP framing already bounds the message size.
		MaxRequestBodyBytes: -1,
	})
	return func(ctx context.Context, req *Request) (Outcome, error) {
		if !isHeaderToken(req.Method) {
			// Not representable as an Mcp-Method header, so not a known method.
			return Outcome{Error: &MCPError{Code: -32601, Message: "Method not found: " + req.Method}}, nil
		}
		hr, err := inProcessRequest(ctx, req)
		if err != nil {
			return Outcome{}, err
		}
		w := &streamWriter{ctx: ctx, req: req, header: http.Header{}}
		h.ServeHTTP(w, hr)
		if ctx.Err() != nil {
			return Outcome{}, ctx.Err()
		}
		return w.outcome()
	}
}

// nameSource names the body member mirrored into Mcp-Name, per MCP 2026-07-28.
var nameSource = map[string]string{
	"tools/call": "name", "prompts/get": "name", "resources/read": "uri",
	"tasks/get": "taskId", "tasks/update": "taskId", "tasks/cancel": "taskId",
}

// inProcessRequest builds the HTTP exchange the SDK's pipeline expects,
// with the headers an HTTP client would mirror. It never leaves the
// process, and the provider has already checked the inner metadata.
func inProcessRequest(ctx context.Context, req *Request) (*http.Request, error) {
	id, _ := json.Marshal(req.RequestID)
	body := map[string]json.RawMessage{"jsonrpc": json.RawMessage(`"2.0"`), "id": id}
	body["method"], _ = json.Marshal(req.Method)
	if len(req.Params) > 0 {
		body["params"] = req.Params
	}
	b, err := json.Marshal(body)
	if err != nil {
		return nil, err
	}
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, "http://mcp-over-acp.invalid/", bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	hr.Header.Set("Content-Type", "application/json")
	hr.Header.Set("Accept", "application/json, text/event-stream")
	hr.Header.Set("Mcp-Protocol-Version", req.ProtocolVersion)
	hr.Header.Set("Mcp-Method", req.Method)
	if field, ok := nameSource[req.Method]; ok {
		params, _ := objectOf(req.Params)
		var name string
		if isString(params[field]) && json.Unmarshal(params[field], &name) == nil {
			// The Go SDK compares the header with the body as is; the
			// request never leaves the process, so no encoding is needed.
			hr.Header["Mcp-Name"] = []string{name}
		}
	}
	return hr, nil
}

// isHeaderToken reports whether s is printable ASCII without spaces.
func isHeaderToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 0x21 || s[i] > 0x7e {
			return false
		}
	}
	return true
}

// streamWriter is the in-process http.ResponseWriter: it forwards the
// notifications of an event stream as they are written and keeps the
// terminal response.
type streamWriter struct {
	ctx      context.Context
	req      *Request
	header   http.Header
	status   int
	body     bytes.Buffer // a JSON body, or the unparsed rest of a stream
	sse      bool
	terminal json.RawMessage
	err      error
}

func (w *streamWriter) Header() http.Header { return w.header }

func (w *streamWriter) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
		w.sse = strings.HasPrefix(w.header.Get("Content-Type"), "text/event-stream")
	}
}

// Flush does nothing: events are parsed as they are written.
func (w *streamWriter) Flush() {}

func (w *streamWriter) Write(b []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	if w.terminal != nil || w.err != nil {
		return len(b), nil
	}
	w.body.Write(b)
	if w.sse {
		w.events()
	}
	return len(b), w.err
}

// events handles each complete event in the buffer.
func (w *streamWriter) events() {
	for w.terminal == nil && w.err == nil {
		raw := w.body.Bytes()
		end := bytes.Index(raw, []byte("\n\n"))
		if end < 0 {
			return
		}
		event := string(raw[:end])
		w.body.Next(end + 2)
		var data []string
		for _, line := range strings.Split(event, "\n") {
			if rest, ok := strings.CutPrefix(line, "data:"); ok {
				data = append(data, strings.TrimPrefix(rest, " "))
			}
		}
		if len(data) > 0 {
			w.message([]byte(strings.Join(data, "\n")))
		}
	}
}

// message handles one JSON-RPC message of the stream.
func (w *streamWriter) message(b []byte) {
	var m map[string]json.RawMessage
	if json.Unmarshal(b, &m) != nil || m == nil {
		return
	}
	_, hasResult := m["result"]
	_, hasError := m["error"]
	if hasResult || hasError {
		w.terminal = b
		return
	}
	var method string
	if _, hasID := m["id"]; !hasID && json.Unmarshal(m["method"], &method) == nil && method != "" {
		// MCP 2026-07-28 has no server-to-client requests: only notifications
		// are forwarded.
		var params json.RawMessage
		if isObject(m["params"]) {
			params = m["params"]
		}
		w.err = w.req.Notify(w.ctx, method, params)
	}
}

// outcome returns the inner outcome of the terminal response.
func (w *streamWriter) outcome() (Outcome, error) {
	if w.err != nil {
		return Outcome{}, w.err
	}
	if w.terminal == nil && !w.sse && strings.HasPrefix(w.header.Get("Content-Type"), "application/json") {
		w.terminal = w.body.Bytes()
	}
	if w.terminal == nil {
		if w.sse {
			return Outcome{}, &Error{Code: CodeBackendFailed, Message: "MCP server stream ended without a response"}
		}
		return Outcome{}, &Error{Code: CodeBackendFailed, Message: fmt.Sprintf("MCP server returned HTTP %d without a JSON-RPC response", w.status)}
	}
	return terminalOutcome(w.terminal, w.req.RequestID)
}

// terminalOutcome drops the JSON-RPC framing of a response, keeping exactly
// its inner outcome.
func terminalOutcome(b []byte, requestID string) (Outcome, error) {
	invalid := &Error{Code: CodeBackendFailed, Message: "MCP server returned an invalid JSON-RPC response"}
	out, err := ParseOutcome(b)
	if err != nil {
		return Outcome{}, invalid
	}
	var m map[string]json.RawMessage
	_ = json.Unmarshal(b, &m)
	var id string
	idRaw, hasID := m["id"]
	matches := isString(idRaw) && json.Unmarshal(idRaw, &id) == nil && id == requestID
	// Pre-dispatch rejections may not echo the request ID.
	if !matches && !((!hasID || string(idRaw) == "null") && out.Error != nil) {
		return Outcome{}, invalid
	}
	return Outcome{Result: out.Result, Error: out.Error}, nil
}

// RegisterServer registers s, a server of the Go MCP SDK, served through
// the SDK's own request pipeline ([ServerHandler]).
func (p *Provider) RegisterServer(name string, s *mcp.Server, opts *ServerOptions) (*Registration, error) {
	return p.Register(name, ServerHandler(s), opts)
}
