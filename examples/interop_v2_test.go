package examples

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/acpgen/acpgen/internal/node"
)

// TestTypeScriptV2ClientDrivesAgent runs the TypeScript SDK's experimental
// v2 client (interop/client_v2.mjs) against examples/agent, the same binary
// TestTypeScriptClientDrivesAgent drives with the v1 client, through the
// echo cases of the v2 echo contract (examples/README.md).
func TestTypeScriptV2ClientDrivesAgent(t *testing.T) {
	nodeBin := node.Require(t)
	agent, _ := binaries(t)
	out := runOutput(t, nodeBin, filepath.Join(node.Dir(), "client_v2.mjs"), agent)
	var got struct {
		echoTurns
		Initialize    json.RawMessage `json:"initialize"`
		UnknownMethod failure         `json:"unknownMethod"`
		InvalidParams failure         `json:"invalidParams"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("client_v2.mjs printed %s: %v", out, err)
	}
	// The TypeScript client fills in the capabilities it reads as absent.
	if want := `{"protocolVersion":2,"info":{"name":"acpgen-example-agent","version":"1.0.0"},"capabilities":{},"authMethods":[]}`; !jsonEqual(string(got.Initialize), want) {
		t.Errorf("initialize: %s, want %s", got.Initialize, want)
	}
	got.check(t, true)
	checkFailures(t, got.UnknownMethod, got.InvalidParams)
}

func chunkV2(message, text string) string {
	return `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"sess_1","update":{"sessionUpdate":"agent_message_chunk","messageId":"` +
		message + `","content":{"type":"text","text":"` + text + `"}}}}`
}

func idleV2(stop string) string {
	return `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"sess_1","update":{"sessionUpdate":"state_update","state":"idle","stopReason":"` + stop + `"}}}`
}

const permissionRequestV2 = `{"jsonrpc":"2.0","id":1,"method":"session/request_permission","params":{"sessionId":"sess_1","title":"echo",` +
	`"options":[{"optionId":"allow","name":"Allow","kind":"allow_once"},{"optionId":"reject","name":"Reject","kind":"reject_once"}]}}`

// TestAgentWireV2 drives the agent in v2 line by line: the prompt is
// answered at once, then come the echo, the permission request, its answer
// and the idle state update; a session/cancel ends the next turn cancelled.
func TestAgentWireV2(t *testing.T) {
	w := startAgent(t)
	w.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":2,"info":{"name":"c","version":"1"}}}`)
	w.expect(`{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":2,"info":{"name":"acpgen-example-agent","version":"1.0.0"},"authMethods":[]}}`)
	// The connection is v2's for good: a v1 initialize reaches the v2 agent,
	// which reads it as v2 params.
	w.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}`)
	if got := w.recv(); !strings.Contains(got, `"id":1,"error":{"code":-32602`) || !strings.Contains(got, `"path":"info"`) {
		t.Errorf("a v1 initialize after v2's: %s", got)
	}
	w.send(`{"jsonrpc":"2.0","id":3,"method":"session/new","params":{"cwd":"/tmp"}}`)
	w.expect(`{"jsonrpc":"2.0","id":3,"result":{"sessionId":"sess_1"}}`)

	w.send(`{"jsonrpc":"2.0","id":4,"method":"session/prompt","params":{"sessionId":"sess_1","prompt":[{"type":"text","text":"one"},{"type":"text","text":"two"}]}}`)
	w.expect(`{"jsonrpc":"2.0","id":4,"result":{"messageId":"msg_1"}}`)
	w.expect(chunkV2("msg_1_reply", "one"))
	w.expect(chunkV2("msg_1_reply", "two"))
	w.expect(permissionRequestV2)
	w.send(`{"jsonrpc":"2.0","id":1,"result":{"outcome":{"outcome":"selected","optionId":"reject"}}}`)
	w.expect(chunkV2("msg_1_reply", "permission: reject"))
	w.expect(idleV2("end_turn"))

	w.send(`{"jsonrpc":"2.0","id":5,"method":"session/prompt","params":{"sessionId":"sess_1","prompt":[{"type":"text","text":"three"}]}}`)
	w.expect(`{"jsonrpc":"2.0","id":5,"result":{"messageId":"msg_2"}}`)
	w.expect(chunkV2("msg_2_reply", "three"))
	w.expect(`{"jsonrpc":"2.0","id":2,"method":"session/request_permission","params":{"sessionId":"sess_1","title":"echo",` +
		`"options":[{"optionId":"allow","name":"Allow","kind":"allow_once"},{"optionId":"reject","name":"Reject","kind":"reject_once"}]}}`)
	w.send(`{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"sess_1"}}`)
	w.send(`{"jsonrpc":"2.0","id":2,"result":{"outcome":{"outcome":"cancelled"}}}`)
	w.expect(chunkV2("msg_2_reply", "permission: cancelled"))
	w.expect(idleV2("cancelled"))
}

// TestTypeScriptClientDrivesBridgedAgent runs the TypeScript SDK's v1
// client (interop/client.mjs) against examples/agent -bridge, whose v2
// agent serves it through convert.Bridge: the same echo cases as the
// v1 agent passes, and the plan the v2 agent sends reaches the client as a
// v1 plan update.
func TestTypeScriptClientDrivesBridgedAgent(t *testing.T) {
	nodeBin := node.Require(t)
	agent, _ := binaries(t)
	out := runOutput(t, nodeBin, filepath.Join(node.Dir(), "client.mjs"), agent, "-bridge")
	var got struct {
		echoTurns
		Initialize struct {
			ProtocolVersion int `json:"protocolVersion"`
			AgentInfo       struct {
				Name string `json:"name"`
			} `json:"agentInfo"`
		} `json:"initialize"`
		Plan          turn    `json:"plan"`
		UnknownMethod failure `json:"unknownMethod"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("client.mjs printed %s: %v", out, err)
	}
	if got.Initialize.ProtocolVersion != 1 || got.Initialize.AgentInfo.Name != "acpgen-example-agent" {
		t.Errorf("initialize: %+v", got.Initialize)
	}
	got.check(t, false)
	if got.Plan.StopReason != "end_turn" || !slices.Equal(got.Plan.Chunks, []string{"plan", "permission: allow"}) {
		t.Errorf("plan: stop %q, chunks %q", got.Plan.StopReason, got.Plan.Chunks)
	}
	if len(got.Plan.Plans) != 1 || !jsonEqual(string(got.Plan.Plans[0]),
		`[{"content":"echo the prompt","priority":"medium","status":"in_progress"}]`) {
		t.Errorf("plans: %s", got.Plan.Plans)
	}
	if got.UnknownMethod.Code != -32601 {
		t.Errorf("unknown method: %+v", got.UnknownMethod)
	}
}
