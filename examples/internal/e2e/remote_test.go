package e2e

import (
	"io"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/acpgen/acpgen/internal/node"
)

// profiles are the two profiles of ACP's remote transport, each with the
// URL a client uses for an agent listening at http://HOST:PORT/acp.
var profiles = []struct {
	name string
	url  func(string) string
}{
	{"http", func(u string) string { return u }},
	{"ws", wsURL},
}

// TestTypeScriptClientDrivesListeningAgent runs the TypeScript SDK's client
// over Streamable HTTP and over WebSocket (interop/client_net.mjs) against
// examples/agent -listen, through the cases of the stdio interop test.
func TestTypeScriptClientDrivesListeningAgent(t *testing.T) {
	nodeBin := node.Require(t)
	agent, _ := binaries(t)
	s := listen(t, exec.Command(agent, "-listen", "127.0.0.1:0"))
	for _, p := range profiles {
		t.Run(p.name, func(t *testing.T) {
			out := runOutput(t, nodeBin, filepath.Join(node.Dir(), "client_net.mjs"), p.url(s.URL))
			checkClientCases(t, out, false)
		})
	}
	checkStops(t, s)
}

// TestClientConnectsToTypeScriptAgent runs examples/client -connect against
// an agent served by the TypeScript SDK's AcpServer (interop/agent_net.mjs),
// over both profiles.
func TestClientConnectsToTypeScriptAgent(t *testing.T) {
	nodeBin := node.Require(t)
	_, client := binaries(t)
	s := listen(t, exec.Command(nodeBin, filepath.Join(node.Dir(), "agent_net.mjs")))
	for _, p := range profiles {
		t.Run(p.name, func(t *testing.T) {
			out := runOutput(t, client, "-prompt", "hello, TypeScript", "-connect", p.url(s.URL))
			if want := "hello, TypeScript\npermission: allow\nstop: end_turn\n"; string(out) != want {
				t.Errorf("client printed %q, want %q", out, want)
			}
		})
	}
}

// TestClientConnectsToAgent runs examples/client -connect against
// examples/agent -listen over both profiles: the same output as over stdio.
func TestClientConnectsToAgent(t *testing.T) {
	agent, client := binaries(t)
	s := listen(t, exec.Command(agent, "-listen", "127.0.0.1:0"))
	for _, p := range profiles {
		t.Run(p.name, func(t *testing.T) {
			out := runOutput(t, client, "-prompt", "hello, agent", "-connect", p.url(s.URL))
			if want := "hello, agent\npermission: allow\nstop: end_turn\n"; string(out) != want {
				t.Errorf("client printed %q, want %q", out, want)
			}
		})
	}
	checkStops(t, s)
}

// TestAgentListenStopsOnSIGINT checks that examples/agent -listen exits 0
// on SIGINT, printing nothing after its listening line.
func TestAgentListenStopsOnSIGINT(t *testing.T) {
	agent, _ := binaries(t)
	s := listen(t, exec.Command(agent, "-listen", "127.0.0.1:0"))
	s.cmd.Process.Signal(syscall.SIGINT)
	<-s.done
	if s.err != nil || s.output() != "" {
		t.Errorf("after SIGINT: %v, printed %q", s.err, s.output())
	}
}

// TestAgentListenFails checks that examples/agent -listen exits non-zero,
// saying why, on an address it cannot listen at.
func TestAgentListenFails(t *testing.T) {
	agent, _ := binaries(t)
	out, err := exec.Command(agent, "-listen", "127.0.0.1:99999").CombinedOutput()
	if err == nil || !strings.Contains(string(out), "agent: listen tcp") {
		t.Errorf("-listen 127.0.0.1:99999: %v, printed %q", err, out)
	}
}

// checkStops stops an agent started by listen with SIGTERM and checks that
// it exits 0, printing nothing after its listening line.
func checkStops(t *testing.T, s *server) {
	t.Helper()
	if err := s.stop(); err != nil || s.output() != "" {
		t.Errorf("after SIGTERM: %v, printed %q", err, s.output())
	}
}

// TestAgentListenServesH2C checks that examples/agent -listen answers
// cleartext HTTP/2 (h2c) as well as HTTP/1.1.
func TestAgentListenServesH2C(t *testing.T) {
	agent, _ := binaries(t)
	s := listen(t, exec.Command(agent, "-listen", "127.0.0.1:0"))
	var h2c http.Protocols
	h2c.SetUnencryptedHTTP2(true)
	client := &http.Client{Transport: &http.Transport{Protocols: &h2c}, Timeout: 30 * time.Second}
	req, err := http.NewRequest(http.MethodPost, s.URL, strings.NewReader(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.ProtoMajor != 2 || resp.StatusCode != http.StatusOK || resp.Header.Get("Acp-Connection-Id") == "" ||
		!jsonEqual(string(body), `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"authMethods":[],"agentInfo":{"name":"acpgen-example-agent","version":"1.0.0"}}}`) {
		t.Errorf("initialize over h2c: %s %s, Acp-Connection-Id %q: %s", resp.Proto, resp.Status, resp.Header.Get("Acp-Connection-Id"), body)
	}
}
