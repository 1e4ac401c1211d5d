package e2e

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/url"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/acpgen/acpgen/acphttp"
	"github.com/acpgen/acpgen/generated/acpv1"
)

// post sends one JSON-RPC message to the ACP endpoint u with the given
// headers and returns the response with its body read.
func post(t *testing.T, u, message string, header http.Header) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, u, strings.NewReader(message))
	if err != nil {
		t.Fatal(err)
	}
	if header != nil {
		req.Header = header.Clone()
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, string(body)
}

// checkCookiesNeeded shows what happens to a Streamable HTTP client that
// drops cookies behind the balancer: initialize is answered by one backend,
// and the next message, balanced to the other, is refused with 404 (unknown
// Acp-Connection-Id); with the SRV cookie, it reaches the connection.
func checkCookiesNeeded(t *testing.T, lb *balancer) {
	resp, body := post(t, lb.URL, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}`, nil)
	id := resp.Header.Get("Acp-Connection-Id")
	if resp.StatusCode != http.StatusOK || id == "" {
		t.Fatalf("initialize: %s, Acp-Connection-Id %q: %s", resp.Status, id, body)
	}
	var cookie *http.Cookie
	for _, c := range resp.Cookies() {
		if c.Name == "SRV" {
			cookie = c
		}
	}
	if cookie == nil || lb.backends[cookie.Value] == nil {
		t.Fatalf("initialize answered with cookies %v, want SRV=a or SRV=b", resp.Cookies())
	}
	t.Logf("initialize: %s from backend %s, Acp-Connection-Id %s", resp.Status, cookie.Value, id)
	header := http.Header{"Acp-Connection-Id": {id}}
	next := `{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/","mcpServers":[]}}`
	resp, body = post(t, lb.URL, next, header)
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("session/new without the cookie: %s %q, want 404 from the other backend", resp.Status, body)
	} else {
		t.Logf("session/new without the cookie: %s %q", resp.Status, body)
	}
	header.Set("Cookie", cookie.String())
	if resp, body = post(t, lb.URL, next, header); resp.StatusCode != http.StatusAccepted {
		t.Errorf("session/new with the cookie %s: %s %q, want 202", cookie, resp.Status, body)
	}
}

// TestBehindHAProxy runs two examples/agent -listen behind HAProxy with
// cookie-based stickiness, for each profile: a client keeps its whole ACP
// connection on one backend through several sessions and prompts, a
// Streamable HTTP client that drops cookies is refused after initialize, and
// stopping the backend of a client fails its pending call with a clear
// error while the other backend keeps serving.
func TestBehindHAProxy(t *testing.T) {
	requireHAProxy(t)
	agent, _ := binaries(t)
	for _, p := range profiles {
		t.Run(p.name, func(t *testing.T) {
			a := listen(t, exec.Command(agent, "-listen", "127.0.0.1:0"))
			b := listen(t, exec.Command(agent, "-listen", "127.0.0.1:0"))
			t.Cleanup(func() {
				if t.Failed() {
					t.Logf("backend a:\n%s\nbackend b:\n%s", a.output(), b.output())
				}
			})
			lb := startBalancer(t, a, b)
			if p.name == "http" {
				checkCookiesNeeded(t, lb)
				checkClientWithoutCookies(t, lb)
			}
			checkSticky(t, p.url(lb.URL))
			checkFailover(t, lb, p.url(lb.URL))
		})
	}
}

// checkClientWithoutCookies shows the same with acphttp's client given a
// cookie jar that keeps nothing: the event stream the client opens after
// initialize, or its next POST, reaches the other backend, whose 404
// closes the transport and fails the request under way.
func checkClientWithoutCookies(t *testing.T, lb *balancer) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	tr, err := acphttp.Dial(ctx, lb.URL, &acphttp.ClientOptions{HTTPClient: &http.Client{Jar: noCookies{}}})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	conn := acpv1.NewClientSideConnection(&lbClient{}, tr, tr)
	// The event stream opens as initialize's answer arrives: its 404 may
	// close the transport before that answer is read, and then initialize
	// fails for it, as session/new does otherwise.
	_, err = conn.Initialize(ctx, acpv1.NewInitializeRequest(1))
	if err == nil {
		_, err = conn.NewSession(ctx, acpv1.NewNewSessionRequest("/", []acpv1.MCPServer{}))
	}
	if !errors.Is(err, acpv1.ErrConnectionClosed) {
		t.Fatalf("initialize and session/new without cookies: %v, want the connection closed", err)
	}
	t.Logf("initialize and session/new without cookies: %v", err)
	// The transport failed for the 404 of its event stream or of the POST:
	// session/new fails with that reason, even when its POST was under way
	// as the transport closed.
	if !strings.Contains(err.Error(), "404") {
		t.Errorf("initialize and session/new without cookies: %v, want the 404", err)
	}
	if _, err := tr.Read(make([]byte, 1)); err == nil || !strings.Contains(err.Error(), "404") {
		t.Errorf("reading the transport after the 404: %v, want the 404", err)
	}
}

// noCookies is a cookie jar that keeps none.
type noCookies struct{}

func (noCookies) SetCookies(*url.URL, []*http.Cookie) {}
func (noCookies) Cookies(*url.URL) []*http.Cookie     { return nil }

// checkSticky runs three sessions of two prompts each over one connection
// through the balancer at u and checks that one backend served every
// request.
func checkSticky(t *testing.T, u string) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c := dialBalancer(t, ctx, u)
	defer c.close()
	close(c.allow)
	if _, err := c.conn.Initialize(ctx, acpv1.NewInitializeRequest(1)); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	for i := range 3 {
		s, err := c.conn.NewSession(ctx, acpv1.NewNewSessionRequest("/", []acpv1.MCPServer{}))
		if err != nil {
			t.Fatalf("session/new %d: %v", i, err)
		}
		for j := range 2 {
			text := fmt.Sprintf("session %d, prompt %d", i, j)
			r, err := c.conn.Prompt(ctx, acpv1.NewPromptRequest(s.SessionID, []acpv1.ContentBlock{acpv1.NewContentBlockText(text)}))
			if err != nil || r.StopReason != acpv1.StopReasonEndTurn {
				t.Fatalf("%s: %v %v", text, r, err)
			}
		}
	}
	served := c.servedBy()
	if len(served) != 1 {
		t.Fatalf("the connection was served by %v, want one backend", served)
	}
	t.Logf("responses by backend: %v", served)
}

// checkFailover stops the backend of a client while a prompt of that client
// waits for its permission request to be answered: the prompt fails with
// the transport's error, and a new client through the balancer is served by
// the other backend.
func checkFailover(t *testing.T, lb *balancer, u string) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c := dialBalancer(t, ctx, u)
	defer c.close()
	if _, err := c.conn.Initialize(ctx, acpv1.NewInitializeRequest(1)); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	s, err := c.conn.NewSession(ctx, acpv1.NewNewSessionRequest("/", []acpv1.MCPServer{}))
	if err != nil {
		t.Fatalf("session/new: %v", err)
	}
	var backend string
	for b := range c.servedBy() {
		backend = b
	}
	if lb.backends[backend] == nil {
		t.Fatalf("the connection was served by %v, want backend a or b", c.servedBy())
	}
	prompted := make(chan error, 1)
	go func() {
		_, err := c.conn.Prompt(ctx, acpv1.NewPromptRequest(s.SessionID, []acpv1.ContentBlock{acpv1.NewContentBlockText("pending")}))
		prompted <- err
	}()
	select {
	case <-c.asked:
	case err := <-prompted:
		t.Fatalf("the prompt ended before asking permission: %v", err)
	}
	if err := lb.backends[backend].stop(); err != nil {
		t.Errorf("stopping backend %s: %v", backend, err)
	}
	err = <-prompted
	if err == nil || ctx.Err() != nil || strings.Contains(err.Error(), "context canceled") {
		t.Fatalf("the pending prompt after its backend stopped: %v (context: %v), want the transport's reason", err, ctx.Err())
	}
	t.Logf("the pending prompt after backend %s stopped: %v", backend, err)

	other := dialBalancer(t, ctx, u)
	defer other.close()
	close(other.allow)
	if _, err := other.conn.Initialize(ctx, acpv1.NewInitializeRequest(1)); err != nil {
		t.Fatalf("initialize after backend %s stopped: %v", backend, err)
	}
	s, err = other.conn.NewSession(ctx, acpv1.NewNewSessionRequest("/", []acpv1.MCPServer{}))
	if err != nil {
		t.Fatalf("session/new after backend %s stopped: %v", backend, err)
	}
	r, err := other.conn.Prompt(ctx, acpv1.NewPromptRequest(s.SessionID, []acpv1.ContentBlock{acpv1.NewContentBlockText("still served")}))
	if err != nil || r.StopReason != acpv1.StopReasonEndTurn {
		t.Fatalf("prompt after backend %s stopped: %v %v", backend, r, err)
	}
	if served := other.servedBy(); len(served) != 1 || served[backend] != 0 {
		t.Errorf("after backend %s stopped, the new connection was served by %v", backend, served)
	}
}

// lbClient is a client connection through the balancer that records which
// backend served each HTTP response (the upgrade alone for WebSocket).
type lbClient struct {
	conn  *acpv1.ClientSideConnection
	close func()
	// allow, once closed, has permission requests answered "allow"; until
	// then each is left pending, after a send on asked.
	allow chan struct{}
	asked chan struct{}
	done  chan struct{} // closed by close: pending requests are let go

	mu     sync.Mutex
	served map[string]int // responses by X-Served-By
}

// dialBalancer connects a client to the ACP endpoint u and closes it when
// the test ends.
func dialBalancer(t *testing.T, ctx context.Context, u string) *lbClient {
	t.Helper()
	c := &lbClient{allow: make(chan struct{}), asked: make(chan struct{}, 1), done: make(chan struct{}), served: map[string]int{}}
	httpClient := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		resp, err := http.DefaultTransport.RoundTrip(r)
		if err == nil {
			c.mu.Lock()
			c.served[resp.Header.Get("X-Served-By")]++
			c.mu.Unlock()
		}
		return resp, err
	})}
	tr, err := acphttp.Dial(ctx, u, &acphttp.ClientOptions{HTTPClient: httpClient})
	if err != nil {
		t.Fatalf("dial %s: %v", u, err)
	}
	acpv1.NewClientSideConnectionFunc(func(conn *acpv1.ClientSideConnection) acpv1.Client {
		c.conn = conn
		return c
	}, tr, tr)
	var once sync.Once
	c.close = func() {
		once.Do(func() {
			close(c.done)
			tr.Close()
		})
	}
	t.Cleanup(c.close)
	return c
}

// servedBy returns how many responses each backend served so far.
func (c *lbClient) servedBy() map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return maps.Clone(c.served)
}

func (c *lbClient) SessionUpdate(ctx context.Context, n *acpv1.SessionNotification) error { return nil }

func (c *lbClient) RequestPermission(ctx context.Context, p *acpv1.RequestPermissionRequest) (*acpv1.RequestPermissionResponse, error) {
	select {
	case <-c.allow:
		return acpv1.NewRequestPermissionResponse(acpv1.NewRequestPermissionOutcomeSelected("allow")), nil
	default:
	}
	c.asked <- struct{}{}
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-c.done:
		return nil, acphttp.ErrClosed
	}
}

// roundTripFunc is an http.RoundTripper made of a function.
type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
