package e2e

import (
	"context"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/acpgen/acpgen/acphttp"
	"github.com/acpgen/acpgen/generated/acpv1"
)

// proxyName is the name by which the clients of TestBehindHAProxyByName
// reach HAProxy: their dialer connects it to 127.0.0.1, and the Host of
// their requests, which HAProxy passes on, is this name.
const proxyName = "acp.example.test"

// TestBehindHAProxyByName runs agents on loopback behind HAProxy, which
// passes the Host of its clients on, as proxies do by default, for clients
// that reach HAProxy by name: the agents refuse the name with 403 until
// their Options.AllowedHosts has it; then acpgen's client runs a session
// over each profile, and a browser page of that name is still refused
// until Options.OriginPatterns has it. A client that reaches HAProxy by its
// loopback address needs neither (TestBehindHAProxy).
func TestBehindHAProxyByName(t *testing.T) {
	requireHAProxy(t)
	for _, c := range []struct {
		name   string
		opts   acphttp.Options
		served bool // the Host proxyName
		page   bool // a page of https://proxyName
	}{
		{"default", acphttp.Options{}, false, false},
		{"AllowedHosts", acphttp.Options{AllowedHosts: []string{proxyName}}, true, false},
		{"AllowedHosts and OriginPatterns", acphttp.Options{AllowedHosts: []string{proxyName}, OriginPatterns: []string{"https://" + proxyName}}, true, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			lb := startBalancer(t, nameBackend(t, c.opts), nameBackend(t, c.opts))
			named := strings.Replace(lb.URL, "127.0.0.1", proxyName, 1)
			for _, p := range profiles {
				u := p.url(named)
				err := nameSession(t, u)
				if c.served && err != nil {
					t.Errorf("a session through %s: %v", u, err)
				}
				if !c.served && (err == nil || !strings.Contains(err.Error(), "403 Forbidden: Host not allowed")) {
					t.Errorf("a session through %s: %v, want 403 for the Host", u, err)
				}
				t.Logf("a session through %s: %v", u, err)
			}
			page := rebindingProbe{"page", "POST", hostPort(t, named), "https://" + proxyName}
			resp, body := page.send(t, lb.URL)
			if want := map[bool]int{true: 200, false: 403}[c.page]; resp.StatusCode != want {
				t.Errorf("initialize from a page of https://%s: %s %q, want %d", proxyName, resp.Status, body, want)
			}
		})
	}
}

// nameBackend starts an ACP server of nameAgent on loopback with opts, shut
// down at the end of the test.
func nameBackend(t *testing.T, opts acphttp.Options) *server {
	t.Helper()
	opts.ErrorLog = log.New(io.Discard, "", 0)
	s := acphttp.NewServer(func(r *http.Request, out io.Writer, in io.Reader) (acphttp.Conn, error) {
		return acpv1.NewAgentSideConnection(nameAgent{}, out, in), nil
	}, &opts)
	ts := httptest.NewServer(s)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		s.Shutdown(ctx)
		ts.Close()
	})
	return &server{URL: ts.URL + "/acp"}
}

// nameSession connects acpgen's client to u, whose host is proxyName,
// through a dialer that connects that name to 127.0.0.1, and runs
// initialize, session/new and a prompt.
func nameSession(t *testing.T, u string) error {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	tr := http.DefaultTransport.(*http.Transport).Clone()
	var d net.Dialer
	tr.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		return d.DialContext(ctx, network, strings.Replace(addr, proxyName, "127.0.0.1", 1))
	}
	t.Cleanup(tr.CloseIdleConnections)
	conn, err := acphttp.Dial(ctx, u, &acphttp.ClientOptions{HTTPClient: &http.Client{Transport: tr}})
	if err != nil {
		return err
	}
	defer conn.Close()
	c := acpv1.NewClientSideConnection(&lbClient{allow: make(chan struct{}), done: make(chan struct{})}, conn, conn)
	if _, err := c.Initialize(ctx, acpv1.NewInitializeRequest(1)); err != nil {
		return err
	}
	s, err := c.NewSession(ctx, acpv1.NewNewSessionRequest("/", []acpv1.MCPServer{}))
	if err != nil {
		return err
	}
	r, err := c.Prompt(ctx, acpv1.NewPromptRequest(s.SessionID, []acpv1.ContentBlock{acpv1.NewContentBlockText("hi")}))
	if err == nil && r.StopReason != acpv1.StopReasonEndTurn {
		t.Errorf("prompt through %s stopped with %q", u, r.StopReason)
	}
	return err
}

// nameAgent is the agent of nameBackend: one session, and prompts that end
// their turn at once.
type nameAgent struct{}

func (nameAgent) Initialize(ctx context.Context, p *acpv1.InitializeRequest) (*acpv1.InitializeResponse, error) {
	return acpv1.NewInitializeResponse(1), nil
}

func (nameAgent) NewSession(ctx context.Context, p *acpv1.NewSessionRequest) (*acpv1.NewSessionResponse, error) {
	return acpv1.NewNewSessionResponse("s1"), nil
}

func (nameAgent) Prompt(ctx context.Context, p *acpv1.PromptRequest) (*acpv1.PromptResponse, error) {
	return acpv1.NewPromptResponse(acpv1.StopReasonEndTurn), nil
}

func (nameAgent) Cancel(ctx context.Context, p *acpv1.CancelNotification) error { return nil }
