package acphttp_test

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/acpgen/acpgen/acphttp"
	"github.com/acpgen/acpgen/generated/acpv1"
)

// promptOnce initializes conn, opens a session and prompts "hi" in it.
func promptOnce(t *testing.T, ctx context.Context, conn *acpv1.ClientSideConnection) {
	t.Helper()
	if _, err := conn.Initialize(ctx, acpv1.NewInitializeRequest(1)); err != nil {
		t.Fatal(err)
	}
	sess, err := conn.NewSession(ctx, acpv1.NewNewSessionRequest("/", []acpv1.MCPServer{}))
	if err != nil {
		t.Fatal(err)
	}
	r, err := conn.Prompt(ctx, acpv1.NewPromptRequest(sess.SessionID, []acpv1.ContentBlock{acpv1.NewContentBlockText("hi")}))
	if err != nil || r.StopReason != acpv1.StopReasonEndTurn {
		t.Fatalf("prompt: %v %v", r, err)
	}
}

// gate is a front for a Server that sets an affinity cookie on requests
// without one, as a load balancer does, and counts them.
type gate struct {
	next http.Handler

	mu        sync.Mutex
	requests  int
	noCookie  int
	noAuth    int
	protocols map[int]int // requests per HTTP major version
}

func (g *gate) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	g.mu.Lock()
	g.requests++
	if _, err := r.Cookie("backend"); err != nil {
		g.noCookie++
		http.SetCookie(w, &http.Cookie{Name: "backend", Value: "b1"})
	}
	if r.Header.Get("Authorization") != "Bearer token" {
		g.noAuth++
	}
	if g.protocols == nil {
		g.protocols = map[int]int{}
	}
	g.protocols[r.ProtoMajor]++
	g.mu.Unlock()
	g.next.ServeHTTP(w, r)
}

// connectAuthorized is the ConnectFunc of the echo agent for requests
// with the right Authorization header.
func connectAuthorized(r *http.Request, out io.Writer, in io.Reader) (acphttp.Conn, error) {
	if r.Header.Get("Authorization") != "Bearer token" {
		return nil, &acphttp.StatusError{Code: http.StatusUnauthorized, Text: "Unauthorized"}
	}
	return connectEcho(r, out, in)
}

// TestCookiesAndHeaders checks that both clients send the caller's
// headers with every request and return the cookies the server sets:
// over Streamable HTTP for the life of the connection, over WebSocket to
// the next connection that shares the jar. A request without the
// Authorization header is refused with the ConnectFunc's status.
func TestCookiesAndHeaders(t *testing.T) {
	s := acphttp.NewServer(connectAuthorized, nil)
	g := &gate{next: s}
	ts := httptest.NewServer(g)
	defer ts.Close()
	defer shutdown(t, s)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	header := http.Header{"Authorization": {"Bearer token"}}
	wsURL := "ws" + strings.TrimPrefix(ts.URL, "http") + "/acp"
	// Each sequence of connections shares a new jar: only the first request
	// of each lacks the cookie.
	for _, urls := range [][]string{{ts.URL + "/acp", ts.URL + "/acp"}, {wsURL, wsURL}} {
		jar, _ := cookiejar.New(nil)
		opts := &acphttp.ClientOptions{Header: header, HTTPClient: &http.Client{Jar: jar}}
		g.mu.Lock()
		g.requests, g.noCookie = 0, 0
		g.mu.Unlock()
		for _, url := range urls {
			tr, err := acphttp.Dial(ctx, url, opts)
			if err != nil {
				t.Fatal(err)
			}
			promptOnce(t, ctx, acpv1.NewClientSideConnection(&recorder{}, tr, tr))
			if err := tr.Close(); err != nil {
				t.Error(err)
			}
		}
		g.mu.Lock()
		if g.requests < 2 || g.noCookie != 1 || g.noAuth != 0 {
			t.Errorf("%s: %d requests, %d without the cookie (want 1), %d without Authorization (want 0)", urls[0], g.requests, g.noCookie, g.noAuth)
		}
		g.mu.Unlock()
	}

	// The cookie is kept for the life of a connection without a jar of the
	// caller's.
	g.mu.Lock()
	g.requests, g.noCookie = 0, 0
	g.mu.Unlock()
	tr, err := acphttp.DialHTTP(ctx, ts.URL+"/acp", &acphttp.ClientOptions{Header: header})
	if err != nil {
		t.Fatal(err)
	}
	promptOnce(t, ctx, acpv1.NewClientSideConnection(&recorder{}, tr, tr))
	tr.Close()
	g.mu.Lock()
	if g.noCookie != 1 {
		t.Errorf("%d of %d requests without the cookie, want 1", g.noCookie, g.requests)
	}
	g.mu.Unlock()

	// Without Authorization.
	tr, err = acphttp.DialHTTP(ctx, ts.URL+"/acp", nil)
	if err != nil {
		t.Fatal(err)
	}
	conn := acpv1.NewClientSideConnection(&recorder{}, tr, tr)
	if _, err = conn.Initialize(ctx, acpv1.NewInitializeRequest(1)); err == nil || !strings.Contains(err.Error(), "401 Unauthorized: Unauthorized") {
		t.Errorf("initialize without Authorization: %v, want a 401", err)
	}
	var he *acphttp.HTTPError
	tr.Close()
	_, err = acphttp.DialWebSocket(ctx, wsURL, nil)
	if !errors.As(err, &he) || he.Status != 401 {
		t.Errorf("WebSocket without Authorization: %v, want a 401 HTTPError", err)
	}
}

// TestH2C runs a connection over cleartext HTTP/2, the server's Protocols
// allowing it and the client's transport speaking only it, then one over
// WebSocket on the same server; with resumable streams too, whose SSE
// streams net/http serves over HTTP/2.
func TestH2C(t *testing.T) {
	t.Run("plain", func(t *testing.T) { testH2C(t, nil) })
	t.Run("resumable", func(t *testing.T) {
		testH2C(t, &acphttp.Options{Resumable: &acphttp.Resumable{}})
	})
}

func testH2C(t *testing.T, opts *acphttp.Options) {
	s := acphttp.NewServer(connectEcho, opts)
	g := &gate{next: s}
	var protocols http.Protocols
	protocols.SetHTTP1(true)
	protocols.SetUnencryptedHTTP2(true)
	srv := &http.Server{Handler: g, Protocols: &protocols}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	var h2c http.Protocols
	h2c.SetUnencryptedHTTP2(true)
	client := &http.Client{Transport: &http.Transport{Protocols: &h2c}}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	tr, err := acphttp.DialHTTP(ctx, "http://"+ln.Addr().String()+"/acp", &acphttp.ClientOptions{HTTPClient: client})
	if err != nil {
		t.Fatal(err)
	}
	promptOnce(t, ctx, acpv1.NewClientSideConnection(&recorder{}, tr, tr))
	if err := tr.Close(); err != nil {
		t.Error(err)
	}
	g.mu.Lock()
	if g.protocols[2] < 5 || g.protocols[1] != 0 {
		t.Errorf("requests per HTTP version: %v, want HTTP/2 only", g.protocols)
	}
	g.mu.Unlock()
	// The same server takes WebSockets, which upgrade HTTP/1.1.
	tr, err = acphttp.DialWebSocket(ctx, "ws://"+ln.Addr().String()+"/acp", nil)
	if err != nil {
		t.Fatal(err)
	}
	promptOnce(t, ctx, acpv1.NewClientSideConnection(&recorder{}, tr, tr))
	tr.Close()
	shutdown(t, s)
	if err := srv.Shutdown(ctx); err != nil {
		t.Error(err)
	}
	if err := <-served; err != http.ErrServerClosed {
		t.Error(err)
	}
}

// TestPostFailures checks how the Streamable HTTP client takes a refused
// POST: another status fails that request alone, with the status and body
// as data, and the connection goes on; 404 fails the transport, and the
// pending calls with it.
func TestPostFailures(t *testing.T) {
	s := acphttp.NewServer(connectWaiting(make(chan struct{}, 1)), nil)
	front := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(strings.NewReader(string(body)))
		switch {
		case strings.Contains(string(body), `"_bad_gateway"`):
			http.Error(w, `{"why":"no backend"}`, http.StatusBadGateway)
			return
		case strings.Contains(string(body), `"_gone"`):
			http.Error(w, "Unknown Acp-Connection-Id", http.StatusNotFound)
			return
		}
		s.ServeHTTP(w, r)
	})
	ts := httptest.NewServer(front)
	defer ts.Close()
	defer shutdown(t, s)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	tr, err := acphttp.DialHTTP(ctx, ts.URL+"/acp", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	conn := acpv1.NewClientSideConnection(&recorder{}, tr, tr)
	if _, err := conn.Initialize(ctx, acpv1.NewInitializeRequest(1)); err != nil {
		t.Fatal(err)
	}
	_, err = conn.ExtMethod(ctx, "_bad_gateway", nil)
	var rpcErr *acpv1.Error
	if !errors.As(err, &rpcErr) || rpcErr.Code != -32603 || !strings.Contains(string(rpcErr.Data), `"status":502`) || !strings.Contains(string(rpcErr.Data), `"body":{"why":"no backend"}`) {
		t.Errorf("request refused 502: %v, want a -32603 error with the status and body", err)
	}
	sess, err := conn.NewSession(ctx, acpv1.NewNewSessionRequest("/", []acpv1.MCPServer{}))
	if err != nil {
		t.Fatalf("the connection did not go on: %v", err)
	}
	pending := make(chan error, 1)
	go func() {
		_, err := conn.Prompt(ctx, acpv1.NewPromptRequest(sess.SessionID, []acpv1.ContentBlock{acpv1.NewContentBlockText("wait")}))
		pending <- err
	}()
	_, err = conn.ExtMethod(ctx, "_gone", nil)
	if !errors.Is(err, acpv1.ErrConnectionClosed) || !strings.Contains(err.Error(), "404") {
		t.Errorf("request refused 404: %v, want the connection closed for the 404", err)
	}
	if err := <-pending; !errors.Is(err, acpv1.ErrConnectionClosed) || !strings.Contains(err.Error(), "ACP POST failed: 404") {
		t.Errorf("pending prompt: %v, want it failed with the transport's reason", err)
	}
	// The transport told the server to end the connection.
	waitFor(t, func() bool { return s.Connections() == 0 })
}

// TestClientMessageTooLarge checks that an agent message over the
// client's MaxMessageBytes fails the transport.
func TestClientMessageTooLarge(t *testing.T) {
	_, url := serve(t, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, u := range []string{url, profileURL(url, "ws")} {
		tr, err := acphttp.Dial(ctx, u, &acphttp.ClientOptions{MaxMessageBytes: 100})
		if err != nil {
			t.Fatal(err)
		}
		conn := acpv1.NewClientSideConnection(&recorder{}, tr, tr)
		if _, err := conn.Initialize(ctx, acpv1.NewInitializeRequest(1)); err != nil {
			t.Fatal(err)
		}
		_, err = conn.Prompt(ctx, acpv1.NewPromptRequest("sess_1", []acpv1.ContentBlock{acpv1.NewContentBlockText(strings.Repeat("x", 200))}))
		if !errors.Is(err, acpv1.ErrConnectionClosed) || !strings.Contains(err.Error(), "too") {
			t.Errorf("%s: %v, want the connection closed for a message too large", u, err)
		}
		tr.Close()
	}
}

// TestServerGone checks the reason a pending call fails with when the
// server's end goes away without a word, over both profiles.
func TestServerGone(t *testing.T) {
	for _, profile := range []string{"http", "ws"} {
		t.Run(profile, func(t *testing.T) {
			waiting := make(chan struct{}, 1)
			s := acphttp.NewServer(connectWaiting(waiting), nil)
			ts := httptest.NewUnstartedServer(s)
			ln := &trackingListener{Listener: ts.Listener}
			ts.Listener = ln
			ts.Start()
			defer shutdown(t, s)
			url := ts.URL + "/acp"
			url = profileURL(url, profile)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			done, _, tr := dialPrompt(t, ctx, url, nil)
			defer tr.Close()
			<-waiting
			ln.closeAll() // as a backend that dies
			err := <-done
			// Over Streamable HTTP, a stream or a POST still under way fails.
			want := map[string]string{"http": "EOF", "ws": "closed without a close frame"}[profile]
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("pending prompt: %v, want an error that says %q", err, want)
			}
			ts.Close()
		})
	}
}

// trackingListener keeps the connections it accepts, to close them all.
type trackingListener struct {
	net.Listener
	mu    sync.Mutex
	conns []net.Conn
}

func (l *trackingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err == nil {
		l.mu.Lock()
		l.conns = append(l.conns, c)
		l.mu.Unlock()
	}
	return c, err
}

// closeAll closes every connection accepted so far.
func (l *trackingListener) closeAll() {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, c := range l.conns {
		c.Close()
	}
}
