package acphttp_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/acpgen/acpgen/acphttp"
)

const initializeBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}`

// do sends one request to url and returns its status, headers and body.
func do(t *testing.T, method, url, body string, header ...string) (int, http.Header, string) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, resp.Header, string(b)
}

// open initializes a connection and returns its id.
func open(t *testing.T, url string) string {
	t.Helper()
	status, h, body := do(t, "POST", url, initializeBody, "Content-Type", "application/json")
	if status != 200 {
		t.Fatalf("initialize: %d %s", status, body)
	}
	if ct := h.Get("Content-Type"); ct != "application/json" {
		t.Errorf("initialize Content-Type %q", ct)
	}
	if !strings.HasPrefix(body, `{"jsonrpc":"2.0","id":1,"result":{`) {
		t.Errorf("initialize answered %s", body)
	}
	id := h.Get(acphttp.HeaderConnectionID)
	if len(id) != 36 {
		t.Fatalf("Acp-Connection-Id %q is not a UUID", id)
	}
	return id
}

// TestStatus checks the status and body of each request the server
// refuses or takes, as the TypeScript SDK's AcpServer answers them.
func TestStatus(t *testing.T) {
	_, url := serve(t, &acphttp.Options{Limits: acphttp.Limits{MaxRequestBodyBytes: 1 << 10, MaxIDLength: 16}})
	id := open(t, url)
	const ct, cid, sid = "Content-Type", acphttp.HeaderConnectionID, acphttp.HeaderSessionID
	const mt = "application/json"
	prompt := func(session string) string {
		return `{"jsonrpc":"2.0","id":5,"method":"session/prompt","params":{"sessionId":"` + session + `","prompt":[]}}`
	}
	for _, c := range []struct {
		name, method, body string
		header             []string
		status             int
		want               string
	}{
		{"not JSON media type", "POST", initializeBody, []string{ct, "text/plain"}, 415, "Unsupported Media Type"},
		{"media type parameters", "POST", "{", []string{ct, "Application/JSON; charset=utf-8"}, 400, "Invalid JSON"},
		{"not JSON", "POST", "hello", []string{ct, mt}, 400, "Invalid JSON"},
		{"cut short", "POST", `{"method":"`, []string{ct, mt}, 400, "Invalid JSON"},
		{"batch", "POST", "[" + initializeBody + "]", []string{ct, mt}, 400,
			`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid request: JSON-RPC batches are not supported"}}`},
		{"not an object", "POST", "42", []string{ct, mt}, 400, "Invalid JSON-RPC message"},
		{"duplicate names", "POST", `{"jsonrpc":"2.0","id":1,"id":2,"method":"initialize"}`, []string{ct, mt}, 400, "Invalid JSON"},
		{"initialize on a connection", "POST", initializeBody, []string{ct, mt, cid, id}, 400, "Initialize not allowed on existing connection"},
		{"initialize without id", "POST", `{"jsonrpc":"2.0","id":null,"method":"initialize","params":{}}`, []string{ct, mt}, 400, "Initialize request must include an ID"},
		{"missing connection", "POST", `{"jsonrpc":"2.0","id":2,"method":"session/new","params":{}}`, []string{ct, mt}, 400, "Missing Acp-Connection-Id"},
		{"unknown connection", "POST", `{"jsonrpc":"2.0","id":2,"method":"session/new","params":{}}`, []string{ct, mt, cid, "nope"}, 404, "Unknown Acp-Connection-Id"},
		{"request", "POST", `{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":"/","mcpServers":[]}}`, []string{ct, mt, cid, id}, 202, ""},
		{"session method without session header", "POST", prompt("sess_1"), []string{ct, mt, cid, id}, 400, "Missing Acp-Session-Id"},
		{"params session without header", "POST", `{"jsonrpc":"2.0","method":"_x","params":{"sessionId":"s"}}`, []string{ct, mt, cid, id}, 400, "Missing Acp-Session-Id"},
		{"mismatched session", "POST", prompt("sess_1"), []string{ct, mt, cid, id, sid, "sess_2"}, 400, "Mismatched Acp-Session-Id"},
		{"session id too long", "POST", prompt("sess_123456789012345"), []string{ct, mt, cid, id, sid, "sess_123456789012345"}, 400, "Session ID exceeds maxIdLength (16)"},
		{"request id too long", "POST", `{"jsonrpc":"2.0","id":"12345678901234567","method":"session/new","params":{}}`, []string{ct, mt, cid, id}, 400, "Request ID exceeds maxIdLength (16)"},
		{"notification", "POST", `{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"sess_1"}}`, []string{ct, mt, cid, id, sid, "sess_1"}, 202, ""},
		{"body too large", "POST", `{"jsonrpc":"2.0","method":"_x","params":"` + strings.Repeat("x", 1<<10) + `"}`, []string{ct, mt, cid, id}, 413, "Request body exceeds 1024 bytes"},
		{"not an event stream", "GET", "", []string{cid, id}, 406, "Not Acceptable"},
		{"stream without connection", "GET", "", []string{"Accept", "text/event-stream"}, 400, "Missing Acp-Connection-Id"},
		{"stream of unknown connection", "GET", "", []string{"Accept", "text/event-stream", cid, "nope"}, 404, "Unknown Acp-Connection-Id"},
		{"stream of too long session", "GET", "", []string{"Accept", "text/event-stream", cid, id, sid, strings.Repeat("s", 17)}, 400, "Session ID exceeds maxIdLength (16)"},
		{"method", "PUT", "", nil, 405, "Method Not Allowed"},
		{"delete without connection", "DELETE", "", nil, 400, "Missing Acp-Connection-Id"},
		{"delete unknown connection", "DELETE", "", []string{cid, "nope"}, 404, "Unknown Acp-Connection-Id"},
	} {
		status, _, body := do(t, c.method, url, c.body, c.header...)
		if status != c.status || body != c.want {
			t.Errorf("%s: %d %q, want %d %q", c.name, status, body, c.status, c.want)
		}
	}
	if status, _, _ := do(t, "DELETE", url, "", cid, id); status != 202 {
		t.Errorf("DELETE: %d, want 202", status)
	}
	if status, _, body := do(t, "DELETE", url, "", cid, id); status != 404 {
		t.Errorf("second DELETE: %d %s, want 404", status, body)
	}
	if status, _, body := do(t, "POST", url, `{"jsonrpc":"2.0","method":"_x"}`, ct, mt, cid, id); status != 404 {
		t.Errorf("POST after DELETE: %d %s, want 404", status, body)
	}
}

// stream opens an SSE stream and returns its response.
func stream(t *testing.T, url string, header ...string) *http.Response {
	t.Helper()
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept", "text/event-stream")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// TestStreams checks the SSE streams: their headers and framing, where
// responses and agent requests go, and 409 for a second receiver.
func TestStreams(t *testing.T) {
	_, url := serve(t, nil)
	id := open(t, url)
	const ct, cid, sid = "Content-Type", acphttp.HeaderConnectionID, acphttp.HeaderSessionID
	main := stream(t, url, cid, id)
	if main.StatusCode != 200 || main.Header.Get("Content-Type") != "text/event-stream" || main.Header.Get("Cache-Control") != "no-cache" {
		t.Fatalf("connection stream: %d %v", main.StatusCode, main.Header)
	}
	if again := stream(t, url, cid, id); again.StatusCode != 409 {
		t.Errorf("second connection stream: %d, want 409", again.StatusCode)
	}
	events := bufio.NewReader(main.Body)
	if status, _, body := do(t, "POST", url, `{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":"/","mcpServers":[]}}`, ct, "application/json", cid, id); status != 202 || body != "" {
		t.Fatalf("session/new: %d %q", status, body)
	}
	if got, want := event(t, events), `{"jsonrpc":"2.0","id":2,"result":{"sessionId":"sess_1"}}`; got != want {
		t.Errorf("connection stream sent %s, want %s", got, want)
	}
	// The prompt's updates and permission request, and its response, go to
	// the session's stream, which buffers them until it is opened.
	prompt := `{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"sessionId":"sess_1","prompt":[{"type":"text","text":"hi"}]}}`
	if status, _, body := do(t, "POST", url, prompt, ct, "application/json", cid, id, sid, "sess_1"); status != 202 {
		t.Fatalf("prompt: %d %q", status, body)
	}
	sess := stream(t, url, cid, id, sid, "sess_1")
	if sess.StatusCode != 200 {
		t.Fatalf("session stream: %d", sess.StatusCode)
	}
	if again := stream(t, url, cid, id, sid, "sess_1"); again.StatusCode != 409 {
		t.Errorf("second session stream: %d, want 409", again.StatusCode)
	}
	sevents := bufio.NewReader(sess.Body)
	if got := event(t, sevents); !strings.Contains(got, `"method":"session/update"`) || !strings.Contains(got, `"text":"hi"`) {
		t.Errorf("session stream sent %s, want the update", got)
	}
	got := event(t, sevents)
	if !strings.Contains(got, `"method":"session/request_permission"`) {
		t.Fatalf("session stream sent %s, want the permission request", got)
	}
	var req struct{ ID json.RawMessage }
	if err := json.Unmarshal([]byte(got), &req); err != nil || req.ID == nil {
		t.Fatalf("permission request %s: %v", got, err)
	}
	reply := `{"jsonrpc":"2.0","id":` + string(req.ID) + `,"result":{"outcome":{"outcome":"selected","optionId":"allow"}}}`
	if status, _, body := do(t, "POST", url, reply, ct, "application/json", cid, id); status != 400 || body != "Missing Acp-Session-Id" {
		t.Errorf("response without session: %d %q", status, body)
	}
	if status, _, body := do(t, "POST", url, reply, ct, "application/json", cid, id, sid, "sess_9"); status != 400 || body != "Mismatched Acp-Session-Id" {
		t.Errorf("response with another session: %d %q", status, body)
	}
	if status, _, body := do(t, "POST", url, reply, ct, "application/json", cid, id, sid, "sess_1"); status != 202 {
		t.Errorf("response: %d %q", status, body)
	}
	event(t, sevents) // permission: allow
	if got := event(t, sevents); got != `{"jsonrpc":"2.0","id":3,"result":{"stopReason":"end_turn"}}` {
		t.Errorf("session stream sent %s, want the prompt's response", got)
	}
	// DELETE ends the streams.
	if status, _, _ := do(t, "DELETE", url, "", cid, id); status != 202 {
		t.Errorf("DELETE: %d", status)
	}
	if _, err := events.ReadString('\n'); err != io.EOF {
		t.Errorf("connection stream after DELETE: %v, want EOF", err)
	}
}

// event reads one SSE event, checking its framing, and returns its data.
func event(t *testing.T, r *bufio.Reader) string {
	t.Helper()
	line, err := r.ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	blank, err := r.ReadString('\n')
	if err != nil || blank != "\n" || !strings.HasPrefix(line, "data: ") {
		t.Fatalf("not an SSE event: %q %q", line, blank)
	}
	return strings.TrimSuffix(strings.TrimPrefix(line, "data: "), "\n")
}

// TestConnectRefused checks the answers to an initialize the ConnectFunc
// refuses: its status for a StatusError, 500 without detail for another
// error or a panic, and 500 with a -32603 error when the agent answers
// something else. Each server shuts down at once after.
func TestConnectRefused(t *testing.T) {
	for _, c := range []struct {
		name    string
		connect acphttp.ConnectFunc
		status  int
		want    string
	}{
		{"status", func(*http.Request, io.Writer, io.Reader) (acphttp.Conn, error) {
			return nil, &acphttp.StatusError{Code: 401, Text: "Unauthorized"}
		}, 401, "Unauthorized"},
		{"error", func(*http.Request, io.Writer, io.Reader) (acphttp.Conn, error) {
			return nil, errors.New("/secret/path: no such file")
		}, 500, "Internal Server Error"},
		{"panic", func(*http.Request, io.Writer, io.Reader) (acphttp.Conn, error) {
			panic("/secret/path: boom")
		}, 500, "Internal Server Error"},
		{"wrong answer", answersWrong, 500, `{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"Initialize failed"}}`},
	} {
		s := acphttp.NewServer(c.connect, &acphttp.Options{ErrorLog: log.New(io.Discard, "", 0)})
		rec := httptest.NewRecorder()
		req := httptest.NewRequest("POST", "/acp", strings.NewReader(initializeBody))
		req.Header.Set("Content-Type", "application/json")
		s.ServeHTTP(rec, req)
		if rec.Code != c.status || rec.Body.String() != c.want {
			t.Errorf("%s: %d %q, want %d %q", c.name, rec.Code, rec.Body, c.status, c.want)
		}
		shutdown(t, s)
	}
}

// TestAborted checks that an initialize whose client has gone is
// answered 499 and leaves no connection.
func TestAborted(t *testing.T) {
	s := acphttp.NewServer(connectEcho, nil)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rec := httptest.NewRecorder()
	req := httptest.NewRequestWithContext(ctx, "POST", "/acp", strings.NewReader(initializeBody))
	req.Header.Set("Content-Type", "application/json")
	s.ServeHTTP(rec, req)
	if rec.Code != 499 || s.Connections() != 0 {
		t.Errorf("%d %q with %d connections, want 499 and none", rec.Code, rec.Body, s.Connections())
	}
	shutdown(t, s)
}

// fakeConn is a Conn whose agent the test writes itself.
type fakeConn struct{ done chan struct{} }

func newFakeConn(io.Reader) *fakeConn { return &fakeConn{done: make(chan struct{})} }

func (c *fakeConn) Done() <-chan struct{} { return c.done }

// shutdown shuts s down within 5 s.
func shutdown(t *testing.T, s *acphttp.Server) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := s.Shutdown(ctx); err != nil {
		t.Errorf("Shutdown: %v", err)
	}
}
