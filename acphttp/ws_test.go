package acphttp_test

import (
	"context"
	"errors"
	"io"
	"log"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/acpgen/acpgen/acphttp"
	"github.com/coder/websocket"
)

// dialRaw opens a WebSocket to the server at url (http) and returns it
// with its Acp-Connection-Id.
func dialRaw(t *testing.T, ctx context.Context, url string) (*websocket.Conn, string) {
	t.Helper()
	ws, resp, err := websocket.Dial(ctx, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.CloseNow() })
	return ws, resp.Header.Get(acphttp.HeaderConnectionID)
}

// exchange sends msg as a text frame and returns the next frame.
func exchange(t *testing.T, ctx context.Context, ws *websocket.Conn, msg string) string {
	t.Helper()
	if err := ws.Write(ctx, websocket.MessageText, []byte(msg)); err != nil {
		t.Fatal(err)
	}
	typ, data, err := ws.Read(ctx)
	if err != nil || typ != websocket.MessageText {
		t.Fatalf("reading: %v %v", typ, err)
	}
	return string(data)
}

// TestWebSocket checks the WebSocket profile: the 101 carries
// Acp-Connection-Id, binary frames are ignored, and what is not one JSON
// object is answered with a protocol error.
func TestWebSocket(t *testing.T) {
	_, url := serve(t, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ws, id := dialRaw(t, ctx, url)
	if len(id) != 36 {
		t.Errorf("the 101 has Acp-Connection-Id %q", id)
	}
	if err := ws.Write(ctx, websocket.MessageBinary, []byte(initializeBody)); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ send, want string }{
		{"[" + initializeBody + "]", `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid request: JSON-RPC batches are not supported"}}`},
		{"hello", `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`},
		{`"hello"`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid request"}}`},
		{initializeBody, `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1}}`},
		{strings.Replace(initializeBody, `"id":1`, `"id":7`, 1), `{"jsonrpc":"2.0","id":7,"error":{"code":-32600,"message":"Initialize not allowed on existing connection"}}`},
		{`{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":"/","mcpServers":[]}}`, `{"jsonrpc":"2.0","id":2,"result":{"sessionId":"sess_1"}}`},
	} {
		if got := exchange(t, ctx, ws, c.send); !strings.HasPrefix(got, strings.TrimSuffix(c.want, "}}")) {
			t.Errorf("sent %s, got %s, want %s", c.send, got, c.want)
		}
	}
}

// TestWebSocketFirstMessage checks that a WebSocket whose first message
// is not initialize is closed with 1002.
func TestWebSocketFirstMessage(t *testing.T) {
	s, url := serve(t, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ws, _ := dialRaw(t, ctx, url)
	if err := ws.Write(ctx, websocket.MessageText, []byte(`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{}}`)); err != nil {
		t.Fatal(err)
	}
	_, _, err := ws.Read(ctx)
	if got := websocket.CloseStatus(err); got != websocket.StatusProtocolError {
		t.Errorf("closed with %v (%v), want 1002", got, err)
	}
	waitFor(t, func() bool { return s.Connections() == 0 })
}

// TestWebSocketMessageTooLarge checks that a frame over MaxMessageBytes
// closes the socket with 1009.
func TestWebSocketMessageTooLarge(t *testing.T) {
	_, url := serve(t, &acphttp.Options{Limits: acphttp.Limits{MaxMessageBytes: 200}})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ws, _ := dialRaw(t, ctx, url)
	exchange(t, ctx, ws, initializeBody)
	big := `{"jsonrpc":"2.0","method":"_x","params":"` + strings.Repeat("x", 300) + `"}`
	if err := ws.Write(ctx, websocket.MessageText, []byte(big)); err != nil {
		t.Fatal(err)
	}
	_, _, err := ws.Read(ctx)
	if got := websocket.CloseStatus(err); got != websocket.StatusMessageTooBig {
		t.Errorf("closed with %v (%v), want 1009", got, err)
	}
	var ce websocket.CloseError
	if !errors.As(err, &ce) {
		t.Errorf("not a close: %v", err)
	}
}

// TestWebSocketInitializeFailed checks that an initialize the agent does
// not answer first is answered -32603 "Initialize failed", without
// detail, and the socket closed with 1011.
func TestWebSocketInitializeFailed(t *testing.T) {
	url := serveHandler(t, acphttp.NewServer(answersWrong, &acphttp.Options{ErrorLog: log.New(io.Discard, "", 0)}))
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ws, _ := dialRaw(t, ctx, url)
	if got, want := exchange(t, ctx, ws, initializeBody), `{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"Initialize failed"}}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	_, _, err := ws.Read(ctx)
	if got := websocket.CloseStatus(err); got != websocket.StatusInternalError {
		t.Errorf("closed with %v (%v), want 1011", got, err)
	}
}

// answersWrong connects an agent that writes a notification where the
// answer to initialize should be, and reads on until its input ends.
func answersWrong(r *http.Request, out io.Writer, in io.Reader) (acphttp.Conn, error) {
	c := newFakeConn(in)
	go func() {
		defer close(c.done)
		_, _ = io.WriteString(out, `{"jsonrpc":"2.0","method":"hello"}`+"\n")
		_, _ = io.Copy(io.Discard, in)
	}()
	return c, nil
}
