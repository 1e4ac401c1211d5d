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

// exampleCapsV1 is the member of examples/agent's v1 initialize result that
// advertises the sessions its TurnRunner serves, with its comma.
const exampleCapsV1 = `"agentCapabilities":{"loadSession":true,"sessionCapabilities":{"list":{},"delete":{},"resume":{},"close":{}}},`

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
			`{"jsonrpc":"2.0","id":3,"result":{"protocolVersion":1,` + exampleCapsV1 + `"authMethods":[],"agentInfo":{"name":"acpgen-example-agent","version":"1.0.0"}}}`},
	} {
		goAgent.send(c.line)
		tsAgent.send(c.line)
		if c.want == "" {
			continue
		}
		goLine, tsLine := goAgent.recv(), tsAgent.recv()
		// The TypeScript agent serves no session but session/new: it
		// advertises none of the Go agent's session capabilities.
		if goLine != tsLine && strings.Replace(goLine, exampleCapsV1, "", 1) != tsLine {
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
	if !jsonEqual(withoutTransportMeta(t, got.Initialize), `{"protocolVersion":1,"agentCapabilities":{"loadSession":true,"sessionCapabilities":{"list":{},"delete":{},"resume":{},"close":{}}},"authMethods":[],"agentInfo":{"name":"acpgen-example-agent","version":"1.0.0"}}`) {
		t.Errorf("initialize: %s", got.Initialize)
	}
	got.check(t, false)
	checkFailures(t, got.UnknownMethod, got.InvalidParams)
}

// withoutTransportMeta returns the JSON object raw without the _meta
// members a resumable network transport adds (acp/transport, acp/cursor),
// and without _meta once it is empty.
func withoutTransportMeta(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj["_meta"] == nil {
		return string(raw)
	}
	var meta map[string]json.RawMessage
	if err := json.Unmarshal(obj["_meta"], &meta); err != nil {
		return string(raw)
	}
	for k := range meta {
		if strings.HasPrefix(k, "acp/") {
			delete(meta, k)
		}
	}
	if len(meta) == 0 {
		delete(obj, "_meta")
	} else {
		obj["_meta"], _ = json.Marshal(meta)
	}
	b, _ := json.Marshal(obj)
	return string(b)
}

// TestTypeScriptClientLoadsSession runs the TypeScript SDK's v1 client
// (interop/load_session.mjs) against examples/agent, its v1 agent and, with
// -bridge, its v2 agent through convert.Bridge (session/load as a v2
// session/resume with replay): after a turn, the session/load of its
// session replays the conversation before its answer, the prompt as a
// user_message_chunk, then the turn's updates as the client saw them
// during the turn, in order.
func TestTypeScriptClientLoadsSession(t *testing.T) {
	nodeBin := node.Require(t)
	agent, _ := binaries(t)
	for _, args := range [][]string{{agent}, {agent, "-bridge"}} {
		out := runOutput(t, nodeBin, append([]string{filepath.Join(node.Dir(), "load_session.mjs")}, args...)...)
		var got struct {
			StopReason string            `json:"stopReason"`
			Turn       []json.RawMessage `json:"turn"`
			Replay     []json.RawMessage `json:"replay"`
			Loaded     json.RawMessage   `json:"loaded"`
		}
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatalf("%v: the TypeScript client printed %s: %v", args[1:], out, err)
		}
		want := []string{`{"sessionUpdate":"user_message_chunk","content":{"type":"text","text":"/plan A; B"}}`}
		for _, u := range got.Turn {
			want = append(want, string(u))
		}
		if got.StopReason != "end_turn" || len(got.Turn) < 2 || len(got.Replay) != len(want) || string(got.Loaded) != "{}" {
			t.Errorf("%v: the turn ended %q with %d updates; session/load answered %s after %d updates, want %d:\n%s",
				args[1:], got.StopReason, len(got.Turn), got.Loaded, len(got.Replay), len(want), out)
			continue
		}
		for i, u := range got.Replay {
			if !jsonEqual(string(u), want[i]) {
				t.Errorf("%v: replayed update %d: %s, want %s", args[1:], i, u, want[i])
			}
		}
	}
}
