package e2e

import (
	"context"
	"io"
	"net"
	"net/http"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// rebindingProbe is one request of a web page to an agent listening on
// loopback: method "WS" is a WebSocket upgrade; host, when set, replaces
// the Host of the URL.
type rebindingProbe struct {
	name, method, host, origin string
}

// send sends the probe to the endpoint u, with an initialize for a POST,
// and returns the response; its body is read, and a 101 is closed at
// once.
func (p rebindingProbe) send(t *testing.T, u string) (*http.Response, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	method, body := http.MethodGet, io.Reader(nil)
	if p.method == http.MethodPost {
		method = http.MethodPost
		body = strings.NewReader(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}`)
	}
	req, err := http.NewRequestWithContext(ctx, method, u, body)
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
	} else {
		req.Header.Set("Connection", "Upgrade")
		req.Header.Set("Upgrade", "websocket")
		req.Header.Set("Sec-WebSocket-Version", "13")
		req.Header.Set("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ==")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusSwitchingProtocols {
		return resp, ""
	}
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, string(b)
}

// TestListeningAgentRefusesRebinding sends examples/agent -listen, on IPv4
// and on IPv6 loopback, the requests a web page can send it once DNS
// rebinding has pointed its name at the agent's address: each is refused
// with 403 and no Acp-Connection-Id, where the same requests with a
// loopback Host and Origin are served. (That a refused request calls no
// ConnectFunc and counts no connection is checked in package acphttp,
// where the server's count can be read.)
func TestListeningAgentRefusesRebinding(t *testing.T) {
	agent, _ := binaries(t)
	for _, addr := range []string{"127.0.0.1:0", "[::1]:0"} {
		t.Run(addr, func(t *testing.T) {
			if l, err := net.Listen("tcp", addr); err != nil {
				t.Skipf("cannot listen on %s: %v", addr, err)
			} else {
				l.Close()
			}
			s := listen(t, exec.Command(agent, "-listen", addr))
			port := strings.TrimSuffix(s.URL[strings.LastIndex(s.URL, ":")+1:], "/acp")
			evil := "evil.example:" + port
			for _, p := range []rebindingProbe{
				{"POST with a foreign Host", "POST", "evil.example", ""},
				{"POST with a foreign Origin", "POST", "", "http://evil.example"},
				{"WebSocket with a foreign Host and Origin", "WS", evil, "http://" + evil},
				{"WebSocket with a foreign Origin", "WS", "", "http://" + evil},
			} {
				resp, body := p.send(t, s.URL)
				if resp.StatusCode != http.StatusForbidden || !strings.Contains(body, " not allowed: ") {
					t.Errorf("%s: %s %q, want 403", p.name, resp.Status, body)
				}
				if id := resp.Header.Get("Acp-Connection-Id"); id != "" {
					t.Errorf("%s: refused with Acp-Connection-Id %s", p.name, id)
				}
				t.Logf("%s: %s %q", p.name, resp.Status, body)
			}
			loopback := strings.TrimPrefix(strings.TrimSuffix(s.URL, "/acp"), "http://")
			for _, p := range []rebindingProbe{
				{"POST", "POST", "", ""},
				{"POST with a loopback Host", "POST", "localhost:" + port, ""},
				{"POST with a loopback Origin", "POST", "", "http://" + loopback},
				{"WebSocket with a loopback Host and Origin", "WS", "localhost:" + port, "http://localhost:" + port},
				{"WebSocket with a loopback Origin", "WS", "", "http://" + loopback},
			} {
				want := http.StatusOK
				if p.method == "WS" {
					want = http.StatusSwitchingProtocols
				}
				resp, body := p.send(t, s.URL)
				if resp.StatusCode != want || resp.Header.Get("Acp-Connection-Id") == "" {
					t.Errorf("%s: %s %q with Acp-Connection-Id %q, want %d and one", p.name, resp.Status, body, resp.Header.Get("Acp-Connection-Id"), want)
				}
			}
			checkStops(t, s)
		})
	}
}
