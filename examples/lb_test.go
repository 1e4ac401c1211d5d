package examples

import (
	"io"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acpgen/acpgen/internal/node"
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

func TestBalancerTS(t *testing.T) {
	nodeBin := node.Require(t)
	a := listen(t, exec.Command(nodeBin, filepath.Join(node.Dir(), "agent_net.mjs")))
	b := listen(t, exec.Command(nodeBin, filepath.Join(node.Dir(), "agent_net.mjs")))
	lb := startBalancer(t, a, b)
	checkCookiesNeeded(t, lb)
}
