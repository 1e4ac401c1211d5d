package acphttp_test

import (
	"bufio"
	"context"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/acpgen/acpgen/acphttp"
)

// guarded is a test server of the echo agent that counts the calls of
// its ConnectFunc: a request the protections refuse must not make one.
type guarded struct {
	s        *acphttp.Server
	url      string // http://HOST:PORT/acp
	port     string
	connects atomic.Int32
}

// serveGuarded starts a guarded server with opts on a listener of the
// loopback address addr ("127.0.0.1:0" or "[::1]:0"), skipping the test
// when the address is not available.
func serveGuarded(t *testing.T, addr string, opts *acphttp.Options) *guarded {
	t.Helper()
	l, err := net.Listen("tcp", addr)
	if err != nil {
		t.Skipf("cannot listen on %s: %v", addr, err)
	}
	g := &guarded{}
	if opts == nil {
		opts = &acphttp.Options{}
	}
	opts.ErrorLog = log.New(io.Discard, "", 0)
	g.s = acphttp.NewServer(func(r *http.Request, out io.Writer, in io.Reader) (acphttp.Conn, error) {
		g.connects.Add(1)
		return connectEcho(r, out, in)
	}, opts)
	ts := httptest.NewUnstartedServer(g.s)
	ts.Listener.Close()
	ts.Listener = l
	ts.Start()
	t.Cleanup(func() {
		shutdown(t, g.s)
		ts.Close()
	})
	g.url = ts.URL + "/acp"
	_, g.port, _ = net.SplitHostPort(l.Addr().String())
	return g
}

// probe is one request to a guarded server: method "WS" is a WebSocket
// upgrade; host, when set, replaces the Host of the URL.
type probe struct {
	method, host, origin string
	header               []string // more headers, name and value
}

// send sends p to g with body (for a POST) and returns its status and
// body; a 101 is closed at once.
func (p probe) send(t *testing.T, g *guarded, body string) (int, string) {
	t.Helper()
	method := p.method
	if method == "WS" {
		method = http.MethodGet
	}
	var rd io.Reader
	if method == http.MethodPost {
		rd = strings.NewReader(body)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, g.url, rd)
	if err != nil {
		t.Fatal(err)
	}
	if p.host != "" {
		req.Host = p.host
	}
	if p.origin != "" {
		req.Header.Set("Origin", p.origin)
	}
	if method == http.MethodPost {
		req.Header.Set("Content-Type", "application/json")
	}
	if p.method == "WS" {
		req.Header.Set("Connection", "Upgrade")
		req.Header.Set("Upgrade", "websocket")
		req.Header.Set("Sec-WebSocket-Version", "13")
		req.Header.Set("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ==")
	}
	for i := 0; i+1 < len(p.header); i += 2 {
		req.Header.Set(p.header[i], p.header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusSwitchingProtocols {
		return resp.StatusCode, ""
	}
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}

// refused checks that p is refused with 403 and the text want, and that
// the server neither called its ConnectFunc nor counts a connection more
// than it had.
func (p probe) refused(t *testing.T, g *guarded, want string) {
	t.Helper()
	before := g.s.Connections()
	status, body := p.send(t, g, initializeBody)
	if status != http.StatusForbidden || !strings.Contains(body, want) {
		t.Errorf("%+v: %d %q, want 403 with %q", p, status, body, want)
	}
	if n := g.connects.Load(); n != 0 {
		t.Errorf("%+v: the ConnectFunc was called %d times, want none", p, n)
	}
	if n := g.s.Connections(); n != before {
		t.Errorf("%+v: %d connections, want %d", p, n, before)
	}
}

// TestRebindingProbes sends the requests a web page that DNS rebinding
// points at a loopback server can send, over IPv4 and IPv6: each is
// refused with 403 and opens nothing. The same requests with a loopback
// Host and Origin are served.
func TestRebindingProbes(t *testing.T) {
	for _, addr := range []string{"127.0.0.1:0", "[::1]:0"} {
		t.Run(addr, func(t *testing.T) {
			g := serveGuarded(t, addr, nil)
			p := g.port
			for _, c := range []struct {
				probe
				want string
			}{
				{probe{method: "POST", host: "evil.example"}, "Host not allowed"},
				{probe{method: "POST", host: "evil.example:" + p}, "Host not allowed"},
				{probe{method: "POST", origin: "http://evil.example"}, "Origin not allowed"},
				{probe{method: "WS", host: "evil.example:" + p, origin: "http://evil.example:" + p}, "Host not allowed"},
				{probe{method: "WS", origin: "http://evil.example:" + p}, "Origin not allowed"},
				{probe{method: "WS", origin: "https://evil.example"}, "Origin not allowed"},
				// A loopback page on another port is another web page.
				{probe{method: "POST", origin: "http://localhost:1"}, "Origin not allowed"},
				{probe{method: "WS", origin: "http://127.0.0.1:1"}, "Origin not allowed"},
				// The opaque origin of a sandboxed page or a file.
				{probe{method: "POST", origin: "null"}, "Origin not allowed"},
				// A host that only starts like a loopback one.
				{probe{method: "POST", host: "localhost.evil.example:" + p}, "Host not allowed"},
				{probe{method: "POST", host: "127.0.0.1.evil.example:" + p}, "Host not allowed"},
				// No Origin, but a browser that says another site sent it.
				{probe{method: "POST", header: []string{"Sec-Fetch-Site", "cross-site"}}, "Cross-site request refused"},
				{probe{method: "POST", header: []string{"Sec-Fetch-Site", "same-site"}}, "Cross-site request refused"},
			} {
				c.probe.refused(t, g, c.want)
			}
			for _, c := range []probe{
				{method: "POST"},
				{method: "POST", host: "localhost:" + p, origin: "http://localhost:" + p},
				{method: "POST", host: "127.0.0.1:" + p, origin: "http://127.0.0.1:" + p},
				{method: "POST", host: "[::1]:" + p, origin: "http://[::1]:" + p},
				{method: "POST", origin: "http://LOCALHOST:" + p},
				{method: "POST", header: []string{"Sec-Fetch-Site", "same-origin"}},
				{method: "WS"},
				{method: "WS", host: "localhost:" + p, origin: "http://localhost:" + p},
				{method: "WS", origin: "http://127.0.0.1:" + p},
			} {
				want := http.StatusOK
				if c.method == "WS" {
					want = http.StatusSwitchingProtocols
				}
				before := g.connects.Load()
				if status, body := c.send(t, g, initializeBody); status != want {
					t.Errorf("%+v: %d %q, want %d", c, status, body, want)
				}
				if n := g.connects.Load(); n != before+1 {
					t.Errorf("%+v: the ConnectFunc was called %d times, want once", c, n-before)
				}
			}
		})
	}
}

// TestRebindingExistingConnection checks that the event stream and the
// DELETE of a connection, and a message to it, are refused for a foreign
// Host or Origin, and that the connection they name is left as it was.
func TestRebindingExistingConnection(t *testing.T) {
	g := serveGuarded(t, "127.0.0.1:0", nil)
	id := open(t, g.url)
	g.connects.Store(0)
	session := `{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":"/","mcpServers":[]}}`
	for _, p := range []probe{
		{method: "GET", host: "evil.example", header: []string{acphttp.HeaderConnectionID, id, "Accept", "text/event-stream"}},
		{method: "GET", origin: "http://evil.example", header: []string{acphttp.HeaderConnectionID, id, "Accept", "text/event-stream"}},
		{method: "DELETE", host: "evil.example", header: []string{acphttp.HeaderConnectionID, id}},
		{method: "DELETE", origin: "http://evil.example", header: []string{acphttp.HeaderConnectionID, id}},
		{method: "POST", host: "evil.example", header: []string{acphttp.HeaderConnectionID, id}},
	} {
		status, body := p.send(t, g, session)
		if status != http.StatusForbidden {
			t.Errorf("%+v: %d %q, want 403", p, status, body)
		}
	}
	if n := g.s.Connections(); n != 1 {
		t.Fatalf("%d connections after the refused requests, want the one open", n)
	}
	// The refused session/new never reached the agent: this one makes
	// its first session.
	events := stream(t, g.url, acphttp.HeaderConnectionID, id)
	if events.StatusCode != http.StatusOK {
		t.Fatalf("event stream from a loopback client: %s, want 200", events.Status)
	}
	status, body := probe{method: "POST", header: []string{acphttp.HeaderConnectionID, id}}.send(t, g, session)
	if status != http.StatusAccepted {
		t.Fatalf("session/new from a loopback client: %d %q, want 202", status, body)
	}
	if got, want := event(t, bufio.NewReader(events.Body)), `{"jsonrpc":"2.0","id":2,"result":{"sessionId":"sess_1"}}`; got != want {
		t.Errorf("session/new from a loopback client answered %s, want %s", got, want)
	}
	status, _ = probe{method: "DELETE", header: []string{acphttp.HeaderConnectionID, id}}.send(t, g, "")
	if status != http.StatusAccepted {
		t.Errorf("DELETE from a loopback client: %d, want 202", status)
	}
}

// TestGuardOptions checks AllowedHosts, OriginPatterns and the options
// that turn each check off.
func TestGuardOptions(t *testing.T) {
	for _, c := range []struct {
		name string
		opts acphttp.Options
		p    probe
		want int
	}{
		{"allowed host", acphttp.Options{AllowedHosts: []string{"agent.example.com"}}, probe{host: "Agent.Example.com:8443"}, 200},
		{"allowed host pattern", acphttp.Options{AllowedHosts: []string{"*.example.com"}}, probe{host: "agent.example.com"}, 200},
		{"allowed host with port", acphttp.Options{AllowedHosts: []string{"agent.example.com:8443"}}, probe{host: "agent.example.com:8443"}, 200},
		{"allowed host, other port", acphttp.Options{AllowedHosts: []string{"agent.example.com:8443"}}, probe{host: "agent.example.com:9000"}, 403},
		{"other host", acphttp.Options{AllowedHosts: []string{"agent.example.com"}}, probe{host: "evil.example"}, 403},
		{"allowed host, foreign origin", acphttp.Options{AllowedHosts: []string{"agent.example.com"}}, probe{host: "agent.example.com", origin: "https://agent.example.com"}, 403},
		{"origin pattern", acphttp.Options{OriginPatterns: []string{"app.example.com"}}, probe{origin: "https://app.example.com"}, 200},
		{"origin pattern with scheme", acphttp.Options{OriginPatterns: []string{"https://*.example.com"}}, probe{origin: "https://app.example.com"}, 200},
		{"origin pattern, other scheme", acphttp.Options{OriginPatterns: []string{"https://*.example.com"}}, probe{origin: "http://app.example.com"}, 403},
		{"origin pattern, webview", acphttp.Options{OriginPatterns: []string{"vscode-webview://*"}}, probe{method: "WS", origin: "vscode-webview://1a2b3c"}, 101},
		{"origin pattern, cross-site", acphttp.Options{OriginPatterns: []string{"app.example.com"}}, probe{origin: "https://app.example.com", header: []string{"Sec-Fetch-Site", "cross-site"}}, 200},
		{"host check off", acphttp.Options{DisableHostCheck: true}, probe{host: "evil.example"}, 200},
		{"host check off, origin on", acphttp.Options{DisableHostCheck: true}, probe{host: "evil.example", origin: "http://evil.example"}, 403},
		{"origin check off", acphttp.Options{DisableOriginCheck: true}, probe{method: "WS", origin: "http://evil.example"}, 101},
		{"origin check off, host on", acphttp.Options{DisableOriginCheck: true}, probe{host: "evil.example", origin: "http://evil.example"}, 403},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := serveGuarded(t, "127.0.0.1:0", &c.opts)
			if c.p.method == "" {
				c.p.method = "POST"
			}
			status, body := c.p.send(t, g, initializeBody)
			if status != c.want {
				t.Errorf("%+v: %d %q, want %d", c.p, status, body, c.want)
			}
			if n := g.connects.Load(); (n == 1) != (c.want != 403) {
				t.Errorf("%+v: the ConnectFunc was called %d times", c.p, n)
			}
		})
	}
}

// TestHostCheckAddress checks that the Host is checked for a request that
// arrived on a loopback address, or on any once AllowedHosts is set, and
// not for one that arrived on another address, a Unix socket, or without
// an address (a handler called outside an http.Server). The Origin is checked for every one.
func TestHostCheckAddress(t *testing.T) {
	loopback := &net.TCPAddr{IP: net.IPv6loopback, Port: 8080}
	mapped := &net.TCPAddr{IP: net.ParseIP("::ffff:127.0.0.1"), Port: 8080}
	public := &net.TCPAddr{IP: net.ParseIP("192.0.2.1"), Port: 8080}
	unix := &net.UnixAddr{Name: "acp.sock", Net: "unix"}
	for _, c := range []struct {
		addr   net.Addr
		hosts  []string
		origin string
		want   int
	}{
		{loopback, nil, "", 403},
		{mapped, nil, "", 403},
		{public, nil, "", 200},
		{unix, nil, "", 200},
		{nil, nil, "", 200},
		{public, []string{"agent.example.com"}, "", 403},
		{public, nil, "http://evil.example", 403},
		{nil, nil, "http://evil.example", 403},
		{unix, nil, "http://evil.example", 403},
	} {
		s := acphttp.NewServer(connectEcho, &acphttp.Options{AllowedHosts: c.hosts, ErrorLog: log.New(io.Discard, "", 0)})
		ctx := context.Background()
		if c.addr != nil {
			ctx = context.WithValue(ctx, http.LocalAddrContextKey, c.addr)
		}
		req := httptest.NewRequestWithContext(ctx, "POST", "http://evil.example/acp", strings.NewReader(initializeBody))
		req.Header.Set("Content-Type", "application/json")
		if c.origin != "" {
			req.Header.Set("Origin", c.origin)
		}
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		if rec.Code != c.want {
			t.Errorf("on %v with AllowedHosts %q and Origin %q: %d %q, want %d", c.addr, c.hosts, c.origin, rec.Code, rec.Body, c.want)
		}
		shutdown(t, s)
	}
}
