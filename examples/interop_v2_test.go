package examples

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

// TestTypeScriptV2ClientDrivesAgent runs the TypeScript SDK's experimental
// v2 client (interop/client_v2.mjs) against examples/agent, the same binary
// TestTypeScriptClientDrivesAgent drives with the v1 client, through the
// echo cases of the v2 echo contract (examples/README.md).
func TestTypeScriptV2ClientDrivesAgent(t *testing.T) {
	nodeBin := node.Require(t)
	agent, _ := binaries(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, nodeBin, filepath.Join(node.Dir(), "client_v2.mjs"), agent)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("client_v2.mjs: %v\n%s", err, stderr.Bytes())
	}
	type turn struct {
		Accepted   bool     `json:"accepted"`
		StopReason string   `json:"stopReason"`
		Chunks     []string `json:"chunks"`
	}
	type failure struct {
		Code    int             `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	}
	var got struct {
		Initialize    json.RawMessage `json:"initialize"`
		Echo          turn            `json:"echo"`
		Reject        turn            `json:"reject"`
		Cancel        turn            `json:"cancel"`
		UnknownMethod failure         `json:"unknownMethod"`
		InvalidParams failure         `json:"invalidParams"`
		Concurrent    []turn          `json:"concurrent"`
		AfterErrors   turn            `json:"afterErrors"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("client_v2.mjs printed %s: %v", out, err)
	}
	// The TypeScript client fills in the capabilities it reads as absent.
	if want := `{"protocolVersion":2,"info":{"name":"acpgen-example-agent","version":"1.0.0"},"capabilities":{},"authMethods":[]}`; !jsonEqual(string(got.Initialize), want) {
		t.Errorf("initialize: %s, want %s", got.Initialize, want)
	}
	check := func(name string, got turn, stop string, chunks ...string) {
		t.Helper()
		if !got.Accepted || got.StopReason != stop || !equal(got.Chunks, chunks) {
			t.Errorf("%s: accepted %v, stop %q, chunks %q; want %q, %q", name, got.Accepted, got.StopReason, got.Chunks, stop, chunks)
		}
	}
	check("echo", got.Echo, "end_turn", "hello from TypeScript", "permission: allow")
	check("reject", got.Reject, "end_turn", "reject me", "permission: reject")
	check("cancel", got.Cancel, "cancelled", "cancel me", "permission: cancelled")
	if len(got.Concurrent) != 2 {
		t.Fatalf("concurrent: %+v", got.Concurrent)
	}
	check("first of two", got.Concurrent[0], "end_turn", "first", "permission: allow")
	check("second of two", got.Concurrent[1], "end_turn", "second", "permission: reject")
	check("after the errors", got.AfterErrors, "end_turn", "still serving", "permission: allow")
	if f := got.UnknownMethod; f.Code != -32601 || !jsonEqual(string(f.Data), `{"method":"session/unknown"}`) {
		t.Errorf("unknown method: %+v", f)
	}
	if f := got.InvalidParams; f.Code != -32602 || !bytes.Contains(f.Data, []byte(`"path":"cwd"`)) {
		t.Errorf("invalid params: %+v %s", f, f.Data)
	}
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
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, nodeBin, filepath.Join(node.Dir(), "client.mjs"), agent, "-bridge")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("client.mjs: %v\n%s", err, stderr.Bytes())
	}
	type turn struct {
		StopReason string            `json:"stopReason"`
		Chunks     []string          `json:"chunks"`
		Plans      []json.RawMessage `json:"plans"`
	}
	var got struct {
		Initialize struct {
			ProtocolVersion int `json:"protocolVersion"`
			AgentInfo       struct {
				Name string `json:"name"`
			} `json:"agentInfo"`
		} `json:"initialize"`
		Echo, Reject, Cancel, AfterErrors, Plan turn
		Concurrent                              []turn `json:"concurrent"`
		UnknownMethod                           struct {
			Code int `json:"code"`
		} `json:"unknownMethod"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("client.mjs printed %s: %v", out, err)
	}
	if got.Initialize.ProtocolVersion != 1 || got.Initialize.AgentInfo.Name != "acpgen-example-agent" {
		t.Errorf("initialize: %+v", got.Initialize)
	}
	check := func(name string, got turn, stop string, chunks ...string) {
		t.Helper()
		if got.StopReason != stop || !equal(got.Chunks, chunks) {
			t.Errorf("%s: stop %q, chunks %q; want %q, %q", name, got.StopReason, got.Chunks, stop, chunks)
		}
	}
	check("echo", got.Echo, "end_turn", "hello from TypeScript", "permission: allow")
	check("reject", got.Reject, "end_turn", "reject me", "permission: reject")
	check("cancel", got.Cancel, "cancelled", "cancel me", "permission: cancelled")
	check("after the errors", got.AfterErrors, "end_turn", "still serving", "permission: allow")
	check("plan", got.Plan, "end_turn", "plan", "permission: allow")
	if len(got.Concurrent) != 2 {
		t.Fatalf("concurrent: %+v", got.Concurrent)
	}
	check("first of two", got.Concurrent[0], "end_turn", "first", "permission: allow")
	check("second of two", got.Concurrent[1], "end_turn", "second", "permission: reject")
	if len(got.Plan.Plans) != 1 || !jsonEqual(string(got.Plan.Plans[0]),
		`[{"content":"echo the prompt","priority":"medium","status":"in_progress"}]`) {
		t.Errorf("plans: %s", got.Plan.Plans)
	}
	if got.UnknownMethod.Code != -32601 {
		t.Errorf("unknown method: %+v", got.UnknownMethod)
	}
}
