package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/acpgen/acpgen/internal/node"
)

// TestTypeScriptClientDrivesAgent runs the TypeScript SDK's client
// (interop/client.mjs) against examples/agent: echo, reject, cancel, an
// unknown method, invalid params, two sessions prompting at once, and a
// prompt after the errors.
func TestTypeScriptClientDrivesAgent(t *testing.T) {
	nodeBin := node.Require(t)
	agent, _ := binaries(t)
	checkClientCases(t, runOutput(t, nodeBin, filepath.Join(node.Dir(), "client.mjs"), agent), true)
}

// TestInitializeGateMatchesTypeScript sends the same lines, one at a time,
// to examples/agent and to an agent written with the TypeScript SDK behind
// its version router (interop/agent_router.mjs): what comes before
// initialize is answered alike, byte for byte, and a request after it is
// served by both.
func TestInitializeGateMatchesTypeScript(t *testing.T) {
	nodeBin := node.Require(t)
	agent, _ := binaries(t)
	goAgent := startWire(t, exec.Command(agent))
	tsAgent := startWire(t, exec.Command(nodeBin, filepath.Join(node.Dir(), "agent_router.mjs")))
	for _, c := range []struct{ line, want string }{
		{`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/","mcpServers":[]}}`,
			`{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"Invalid request","data":"first ACP request must be initialize"}}`},
		// A notification is ignored; the answer that follows is the next request's.
		{`{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"x"}}`, ""},
		{`{"jsonrpc":"2.0","id":"u","method":"session/unknown","params":{}}`,
			`{"jsonrpc":"2.0","id":"u","error":{"code":-32600,"message":"Invalid request","data":"first ACP request must be initialize"}}`},
		{`{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":0}}`,
			`{"jsonrpc":"2.0","id":2,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"requested":0,"supported":[1,2]}}}`},
		{`[]`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid request: JSON-RPC batches are not supported"}}`},
		{`{"jsonrpc":"2.0","id":3,"method":"initialize","params":{"protocolVersion":1}}`,
			`{"jsonrpc":"2.0","id":3,"result":{"protocolVersion":1,"authMethods":[],"agentInfo":{"name":"acpgen-example-agent","version":"1.0.0"}}}`},
	} {
		goAgent.send(c.line)
		tsAgent.send(c.line)
		if c.want == "" {
			continue
		}
		goLine, tsLine := goAgent.recv(), tsAgent.recv()
		if goLine != tsLine {
			t.Errorf("%s\nGo agent:         %s\nTypeScript agent: %s", c.line, goLine, tsLine)
		}
		if !jsonEqual(goLine, c.want) {
			t.Errorf("%s\nGo agent: %s\nwant %s", c.line, goLine, c.want)
		}
	}
	// After initialize, both serve.
	for _, w := range []*wire{goAgent, tsAgent} {
		w.send(`{"jsonrpc":"2.0","id":4,"method":"session/new","params":{"cwd":"/","mcpServers":[]}}`)
		if got := w.recv(); !strings.Contains(got, `"id":4,"result":{"sessionId":`) {
			t.Errorf("session/new after initialize: %s", got)
		}
	}
}

// TestClientDrivesTypeScriptAgent runs examples/client against an agent
// written with the TypeScript SDK (interop/agent.mjs).
func TestClientDrivesTypeScriptAgent(t *testing.T) {
	nodeBin := node.Require(t)
	_, client := binaries(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, client, "-prompt", "hello, TypeScript", "--", nodeBin, filepath.Join(node.Dir(), "agent.mjs"))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("client: %v\n%s", err, stderr.Bytes())
	}
	if want := "hello, TypeScript\npermission: allow\nstop: end_turn\n"; string(out) != want {
		t.Errorf("client printed %q, want %q", out, want)
	}
}

// checkClientCases checks what the TypeScript SDK's client printed after
// running the cases of interop/client_cases.mjs against examples/agent (with
// session/new before initialize where beforeInitialize).
func checkClientCases(t *testing.T, out []byte, beforeInitialize bool) {
	t.Helper()
	var got struct {
		echoTurns
		BeforeInit    *failure        `json:"beforeInitialize"`
		Initialize    json.RawMessage `json:"initialize"`
		UnknownMethod failure         `json:"unknownMethod"`
		InvalidParams failure         `json:"invalidParams"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("the TypeScript client printed %s: %v", out, err)
	}
	if f := got.BeforeInit; (f != nil) != beforeInitialize {
		t.Errorf("session/new before initialize: %+v, want it sent: %v", f, beforeInitialize)
	} else if f != nil && (f.Code != -32600 || f.Message != "Invalid request" || string(f.Data) != `"first ACP request must be initialize"`) {
		// The version router answers before initialize, as the TypeScript SDK's does.
		t.Errorf("session/new before initialize: %+v %s", f, f.Data)
	}
	if !jsonEqual(string(got.Initialize), `{"protocolVersion":1,"authMethods":[],"agentInfo":{"name":"acpgen-example-agent","version":"1.0.0"}}`) {
		t.Errorf("initialize: %s", got.Initialize)
	}
	got.check(t, false)
	checkFailures(t, got.UnknownMethod, got.InvalidParams)
}
