package acphttp_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/acpgen/acpgen/acphttp"
	"github.com/acpgen/acpgen/generated/acpv1"
	"github.com/coder/websocket"
)

// dialPrompt dials url, initializes, opens a session and starts a prompt
// "wait"; it returns the prompt's error channel and the connection.
func dialPrompt(t *testing.T, ctx context.Context, url string, opts *acphttp.ClientOptions) (<-chan error, *acpv1.ClientSideConnection, *acphttp.Transport) {
	t.Helper()
	tr, err := acphttp.Dial(ctx, url, opts)
	if err != nil {
		t.Fatal(err)
	}
	conn := acpv1.NewClientSideConnection(&recorder{}, tr, tr)
	if _, err := conn.Initialize(ctx, acpv1.NewInitializeRequest(1)); err != nil {
		t.Fatal(err)
	}
	sess, err := conn.NewSession(ctx, acpv1.NewNewSessionRequest("/", []acpv1.MCPServer{}))
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := conn.Prompt(ctx, acpv1.NewPromptRequest(sess.SessionID, []acpv1.ContentBlock{acpv1.NewContentBlockText("wait")}))
		done <- err
	}()
	return done, conn, tr
}

// TestShutdown checks that Shutdown closes connections of both profiles
// with prompts in flight, that those prompts fail with the transport's
// reason, and that no goroutine is left once the server has closed.
func TestShutdown(t *testing.T) {
	before := runtime.NumGoroutine()
	waiting := make(chan struct{}, 2)
	s := acphttp.NewServer(connectWaiting(waiting), nil)
	ts := httptest.NewServer(s)
	client := &http.Client{Transport: &http.Transport{}}
	opts := &acphttp.ClientOptions{HTTPClient: client}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	httpDone, httpConn, httpTr := dialPrompt(t, ctx, ts.URL+"/acp", opts)
	wsDone, wsConn, wsTr := dialPrompt(t, ctx, "ws"+strings.TrimPrefix(ts.URL, "http")+"/acp", opts)
	<-waiting
	<-waiting
	if n := s.Connections(); n != 2 {
		t.Errorf("%d connections, want 2", n)
	}
	if err := s.Shutdown(ctx); err != nil {
		t.Fatalf("Shutdown: %v", err)
	}
	if n := s.Connections(); n != 0 {
		t.Errorf("%d connections after Shutdown", n)
	}
	if err := <-httpDone; err == nil || !strings.Contains(err.Error(), "SSE stream closed") {
		t.Errorf("HTTP prompt: %v, want an error that says the stream closed", err)
	}
	if err := <-wsDone; !errors.Is(err, acpv1.ErrConnectionClosed) || !strings.Contains(err.Error(), "1001") || !strings.Contains(err.Error(), "Server shutting down") {
		t.Errorf("WebSocket prompt: %v, want ErrConnectionClosed with 1001 and its reason", err)
	}
	<-httpConn.Done()
	<-wsConn.Done()
	httpTr.Close()
	wsTr.Close()
	if status, _, body := do(t, "POST", ts.URL+"/acp", initializeBody, "Content-Type", "application/json"); status != 503 {
		t.Errorf("initialize after Shutdown: %d %s, want 503", status, body)
	}
	ts.Close()
	client.CloseIdleConnections()
	waitFor(t, func() bool { return runtime.NumGoroutine() <= before })
}

// TestStall checks that a client that reads none of its output for
// MaxOutputStall has its connection closed: its next POST gets 404.
func TestStall(t *testing.T) {
	s, url := serve(t, &acphttp.Options{Limits: acphttp.Limits{MaxBufferedBytes: 1, MaxOutputStall: 50 * time.Millisecond}})
	id := open(t, url)
	const ct, cid = "Content-Type", acphttp.HeaderConnectionID
	newSession := `{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":"/","mcpServers":[]}}`
	if status, _, body := do(t, "POST", url, newSession, ct, "application/json", cid, id); status != 202 {
		t.Fatalf("session/new: %d %s", status, body)
	}
	// Its response waits on the connection stream, which nobody reads: once
	// it is queued, the next request waits for room, and after
	// MaxOutputStall the connection closes and the POST is answered 404.
	n := 3
	waitFor(t, func() bool {
		n++
		body := strings.Replace(newSession, `"id":2`, fmt.Sprintf(`"id":%d`, n), 1)
		status, _, text := do(t, "POST", url, body, ct, "application/json", cid, id)
		if status != 202 && status != 404 {
			t.Fatalf("POST to a stalled connection: %d %s, want 404", status, text)
		}
		return status == 404
	})
	if n := s.Connections(); n != 0 {
		t.Errorf("%d connections after the stall", n)
	}
}

// TestBufferedSessionStreams checks that output for more session streams
// without a receiver than MaxBufferedSessionStreams closes the connection.
func TestBufferedSessionStreams(t *testing.T) {
	s, url := serve(t, &acphttp.Options{Limits: acphttp.Limits{MaxBufferedSessionStreams: 1}})
	id := open(t, url)
	const ct, cid, sid = "Content-Type", acphttp.HeaderConnectionID, acphttp.HeaderSessionID
	main := stream(t, url, cid, id)
	if main.StatusCode != 200 {
		t.Fatal(main.Status)
	}
	for _, n := range []string{"2", "3"} {
		body := `{"jsonrpc":"2.0","id":` + n + `,"method":"session/new","params":{"cwd":"/","mcpServers":[]}}`
		if status, _, body := do(t, "POST", url, body, ct, "application/json", cid, id); status != 202 {
			t.Fatalf("session/new: %d %s", status, body)
		}
	}
	for _, sess := range []string{"sess_1", "sess_2"} {
		prompt := `{"jsonrpc":"2.0","id":"p` + sess + `","method":"session/prompt","params":{"sessionId":"` + sess + `","prompt":[{"type":"text","text":"hi"}]}}`
		do(t, "POST", url, prompt, ct, "application/json", cid, id, sid, sess)
	}
	waitFor(t, func() bool { return s.Connections() == 0 })
}

// TestMaxConnections checks that a connection past MaxConnections is
// refused with 503, over both profiles, and that one may open again once
// another has closed.
func TestMaxConnections(t *testing.T) {
	_, url := serve(t, &acphttp.Options{MaxConnections: 1})
	id := open(t, url)
	if status, _, body := do(t, "POST", url, initializeBody, "Content-Type", "application/json"); status != 503 || body != "Too many connections" {
		t.Errorf("second connection: %d %q, want 503", status, body)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var he *acphttp.HTTPError
	if _, err := acphttp.DialWebSocket(ctx, "ws"+strings.TrimPrefix(url, "http"), nil); !errors.As(err, &he) || he.Status != 503 {
		t.Errorf("second connection over WebSocket: %v, want 503", err)
	}
	do(t, "DELETE", url, "", acphttp.HeaderConnectionID, id)
	open(t, url)
}

// TestShutdownStalledStream checks that Shutdown does not wait for an SSE
// stream whose client has stopped reading: the write under way fails
// when the connection closes.
func TestShutdownStalledStream(t *testing.T) {
	wrote := make(chan struct{})
	s := acphttp.NewServer(flood(wrote), &acphttp.Options{ErrorLog: log.New(io.Discard, "", 0)})
	ts := httptest.NewServer(s)
	defer ts.Close()
	url := ts.URL + "/acp"
	id := open(t, url)
	resp := stream(t, url, acphttp.HeaderConnectionID, id) // and never read
	if resp.StatusCode != 200 {
		t.Fatal(resp.Status)
	}
	<-wrote
	time.Sleep(100 * time.Millisecond) // for the stream to fill the socket
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := s.Shutdown(ctx); err != nil {
		t.Errorf("Shutdown with a stalled stream: %v", err)
	}
}

// TestShutdownStalledWebSocket checks that Shutdown does not wait for a
// WebSocket whose client has stopped reading.
func TestShutdownStalledWebSocket(t *testing.T) {
	wrote := make(chan struct{})
	s := acphttp.NewServer(flood(wrote), &acphttp.Options{ErrorLog: log.New(io.Discard, "", 0)})
	ts := httptest.NewServer(s)
	defer ts.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	ws, _ := dialRaw(t, ctx, ts.URL+"/acp")
	if err := ws.Write(ctx, websocket.MessageText, []byte(initializeBody)); err != nil {
		t.Fatal(err)
	}
	<-wrote                            // and never read
	time.Sleep(100 * time.Millisecond) // for the agent to fill the socket
	if err := s.Shutdown(ctx); err != nil {
		t.Errorf("Shutdown with a stalled WebSocket: %v", err)
	}
}

// flood returns the ConnectFunc of an agent that answers initialize,
// closes wrote, then writes 8 MiB of notifications (over WebSocket, until
// the socket is full: its writes go to the socket).
func flood(wrote chan struct{}) acphttp.ConnectFunc {
	return func(r *http.Request, out io.Writer, in io.Reader) (acphttp.Conn, error) {
		c := newFakeConn(in)
		go func() {
			defer close(c.done)
			br := bufio.NewReader(in)
			if _, err := br.ReadBytes('\n'); err != nil {
				return
			}
			io.WriteString(out, `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1}}`+"\n")
			close(wrote)
			big := `{"jsonrpc":"2.0","method":"_big","params":"` + strings.Repeat("x", 1<<20) + `"}` + "\n"
			for range 8 {
				if _, err := io.WriteString(out, big); err != nil {
					return
				}
			}
			io.Copy(io.Discard, br) // until the connection closes
		}()
		return c, nil
	}
}
