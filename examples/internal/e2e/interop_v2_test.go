package e2e

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
	if want := `{"protocolVersion":2,"info":{"name":"acpgen-example-agent","version":"1.0.0"},"capabilities":{"session":{}},"authMethods":[]}`; !jsonEqual(string(got.Initialize), want) {
		t.Errorf("initialize: %s, want %s", got.Initialize, want)
	}
	got.check(t, true)
	checkFailures(t, got.UnknownMethod, got.InvalidParams)
}

func chunkV2(message, text string) string {
	return updateV2(`{"sessionUpdate":"agent_message_chunk","messageId":"` + message + `","content":{"type":"text","text":"` + text + `"}}`)
}

func idleV2(stop string) string {
	return updateV2(`{"sessionUpdate":"state_update","state":"idle","stopReason":"` + stop + `"}`)
}

func stateV2(state string) string {
	return updateV2(`{"sessionUpdate":"state_update","state":"` + state + `"}`)
}

func updateV2(update string) string {
	return `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"sess_1","update":` + update + `}}`
}

func userMessageV2(message string, texts ...string) string {
	var blocks []string
	for _, t := range texts {
		blocks = append(blocks, `{"type":"text","text":"`+t+`"}`)
	}
	return updateV2(`{"sessionUpdate":"user_message","messageId":"` + message + `","content":[` + strings.Join(blocks, ",") + `]}`)
}

const permissionRequestV2 = `{"jsonrpc":"2.0","id":1,"method":"session/request_permission","params":{"sessionId":"sess_1","title":"echo",` +
	`"options":[{"optionId":"allow","name":"Allow","kind":"allow_once"},{"optionId":"reject","name":"Reject","kind":"reject_once"}]}}`

// TestAgentWireV2 drives the agent in v2 line by line: the prompt is
// answered at once, then come the user message, running, the echo,
// requires_action with the permission request, running again after its
// answer, and the idle state update; a session/cancel while the next turn
// waits on its permission request cancels that request and ends the turn
// cancelled; the sessions are listed, resumed (the current state before
// the answer; with replayFrom start, the conversation before it) and
// closed.
func TestAgentWireV2(t *testing.T) {
	w := startAgent(t)
	w.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":2,"info":{"name":"c","version":"1"}}}`)
	w.expect(`{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":2,"info":{"name":"acpgen-example-agent","version":"1.0.0"},"capabilities":{"session":{}},"authMethods":[]}}`)
	// The connection is v2's for good: a v1 initialize reaches the v2 agent,
	// which answers it with the version negotiation's error.
	w.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}`)
	if got := w.recv(); !strings.Contains(got, `"id":1,"error":{"code":-32022`) || !strings.Contains(got, `"supported":[2]`) {
		t.Errorf("a v1 initialize after v2's: %s", got)
	}
	w.send(`{"jsonrpc":"2.0","id":3,"method":"session/new","params":{"cwd":"/tmp"}}`)
	w.expect(`{"jsonrpc":"2.0","id":3,"result":{"sessionId":"sess_1"}}`)

	w.send(`{"jsonrpc":"2.0","id":4,"method":"session/prompt","params":{"sessionId":"sess_1","prompt":[{"type":"text","text":"one"},{"type":"text","text":"two"}]}}`)
	w.expect(`{"jsonrpc":"2.0","id":4,"result":{"messageId":"msg_1"}}`)
	w.expect(userMessageV2("msg_1", "one", "two"))
	w.expect(stateV2("running"))
	w.expect(chunkV2("msg_2", "one"))
	w.expect(chunkV2("msg_2", "two"))
	w.expect(stateV2("requires_action"))
	w.expect(permissionRequestV2)
	w.send(`{"jsonrpc":"2.0","id":1,"result":{"outcome":{"outcome":"selected","optionId":"reject"}}}`)
	w.expect(stateV2("running"))
	w.expect(chunkV2("msg_2", "permission: reject"))
	w.expect(idleV2("end_turn"))

	w.send(`{"jsonrpc":"2.0","id":5,"method":"session/prompt","params":{"sessionId":"sess_1","prompt":[{"type":"text","text":"three"}]}}`)
	w.expect(`{"jsonrpc":"2.0","id":5,"result":{"messageId":"msg_3"}}`)
	w.expect(userMessageV2("msg_3", "three"))
	w.expect(stateV2("running"))
	w.expect(chunkV2("msg_4", "three"))
	w.expect(stateV2("requires_action"))
	w.expect(strings.Replace(permissionRequestV2, `"id":1`, `"id":2`, 1))
	w.send(`{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"sess_1"}}`)
	w.expect(`{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":2}}`)
	w.expect(chunkV2("msg_4", "permission: cancelled"))
	w.expect(idleV2("cancelled"))
	w.send(`{"jsonrpc":"2.0","id":2,"result":{"outcome":{"outcome":"cancelled"}}}`) // answers the cancelled request: ignored

	w.send(`{"jsonrpc":"2.0","id":6,"method":"session/list","params":{}}`)
	w.expect(`{"jsonrpc":"2.0","id":6,"result":{"sessions":[{"sessionId":"sess_1","cwd":"/tmp"}]}}`)
	w.send(`{"jsonrpc":"2.0","id":7,"method":"session/resume","params":{"sessionId":"sess_1","cwd":"/tmp"}}`)
	w.expect(idleV2("cancelled")) // the current state, with the last stop reason
	w.expect(`{"jsonrpc":"2.0","id":7,"result":{}}`)
	w.send(`{"jsonrpc":"2.0","id":8,"method":"session/resume","params":{"sessionId":"sess_1","cwd":"/tmp","replayFrom":{"type":"start"}}}`)
	// The conversation, as it was sent, then the current state.
	for _, want := range []string{userMessageV2("msg_1", "one", "two"), chunkV2("msg_2", "one"), chunkV2("msg_2", "two"),
		chunkV2("msg_2", "permission: reject"), userMessageV2("msg_3", "three"), chunkV2("msg_4", "three"),
		chunkV2("msg_4", "permission: cancelled"), idleV2("cancelled"), `{"jsonrpc":"2.0","id":8,"result":{}}`} {
		w.expect(want)
	}
	w.send(`{"jsonrpc":"2.0","id":9,"method":"session/close","params":{"sessionId":"sess_1"}}`)
	w.expect(`{"jsonrpc":"2.0","id":9,"result":{}}`)
	w.send(`{"jsonrpc":"2.0","id":10,"method":"session/prompt","params":{"sessionId":"sess_1","prompt":[{"type":"text","text":"four"}]}}`)
	if got := w.recv(); !strings.Contains(got, `"id":10,"error":{"code":-32002`) {
		t.Errorf("a prompt to a closed session: %s", got)
	}
}

// TestTypeScriptActiveSessionDrivesAgentV2 runs the TypeScript SDK's v2
// ActiveSession (interop/active_session_v2.mjs) against examples/agent:
// the echo contract's turns as nextUpdate() reads them, session/list,
// session/resume and its current-state snapshot, a turn after the resume,
// and session/close.
func TestTypeScriptActiveSessionDrivesAgentV2(t *testing.T) {
	nodeBin := node.Require(t)
	agent, _ := binaries(t)
	out := runOutput(t, nodeBin, filepath.Join(node.Dir(), "active_session_v2.mjs"), agent)
	type turn struct {
		MessageID string   `json:"messageId"`
		Updates   []string `json:"updates"`
	}
	var got struct {
		Initialize       json.RawMessage `json:"initialize"`
		SessionIDs       []string        `json:"sessionIds"`
		Echo             turn            `json:"echo"`
		Reject           turn            `json:"reject"`
		Cancel           turn            `json:"cancel"`
		AfterResume      turn            `json:"afterResume"`
		List             json.RawMessage `json:"list"`
		Resume           json.RawMessage `json:"resume"`
		Snapshot         string          `json:"snapshot"`
		Close            json.RawMessage `json:"close"`
		PromptAfterClose failure         `json:"promptAfterClose"`
		ListAfterClose   struct {
			Sessions []struct {
				SessionID string `json:"sessionId"`
			} `json:"sessions"`
		} `json:"listAfterClose"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("active_session_v2.mjs printed %s: %v", out, err)
	}
	if want := `{"protocolVersion":2,"info":{"name":"acpgen-example-agent","version":"1.0.0"},"capabilities":{"session":{}},"authMethods":[]}`; !jsonEqual(string(got.Initialize), want) {
		t.Errorf("initialize: %s, want %s", got.Initialize, want)
	}
	if len(got.SessionIDs) != 2 || got.SessionIDs[0] == got.SessionIDs[1] || !randomID.MatchString(got.SessionIDs[0]) {
		t.Fatalf("session ids %q, want two random ones", got.SessionIDs)
	}
	answered := func(text, outcome string) []string {
		return []string{"user_message:same id:" + text, "state:running", "chunk:" + text, "state:requires_action",
			"state:running", "chunk:permission: " + outcome, "stop:end_turn"}
	}
	for _, c := range []struct {
		name string
		got  turn
		want []string
	}{
		{"echo", got.Echo, answered("hello from TypeScript", "allow")},
		{"reject", got.Reject, answered("reject me", "reject")},
		{"cancel", got.Cancel, []string{"user_message:same id:cancel me", "state:running", "chunk:cancel me",
			"state:requires_action", "chunk:permission: cancelled", "stop:cancelled"}},
		{"after the resume", got.AfterResume, answered("again", "allow")},
	} {
		if !randomID.MatchString(c.got.MessageID) || !slices.Equal(c.got.Updates, c.want) {
			t.Errorf("%s: message %q, updates %q\nwant %q", c.name, c.got.MessageID, c.got.Updates, c.want)
		}
	}
	if !strings.Contains(string(got.List), got.SessionIDs[0]) || !strings.Contains(string(got.List), got.SessionIDs[1]) {
		t.Errorf("session/list: %s", got.List)
	}
	if string(got.Resume) != "{}" || got.Snapshot != "stop:cancelled" {
		t.Errorf("session/resume: %s, snapshot %q; want {} after the current state idle (cancelled)", got.Resume, got.Snapshot)
	}
	if string(got.Close) != "{}" || got.PromptAfterClose.Code != -32002 {
		t.Errorf("session/close: %s, then a prompt: %+v", got.Close, got.PromptAfterClose)
	}
	if l := got.ListAfterClose.Sessions; len(l) != 1 || l[0].SessionID != got.SessionIDs[1] {
		t.Errorf("session/list after the close: %+v", l)
	}
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
