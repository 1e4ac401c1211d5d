package acpv1test

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/acpgen/acpgen/generated/acpv1"
)

// busyTurn says the prompt, sets the plan and runs a tool call to its end.
func busyTurn(ctx context.Context, t *acpv1.Turn) error {
	if err := echo(ctx, t); err != nil {
		return err
	}
	if err := t.Plan(ctx, []acpv1.PlanEntry{{Content: "a", Priority: acpv1.PlanEntryPriorityHigh, Status: acpv1.PlanEntryStatusPending}}); err != nil {
		return err
	}
	if err := t.ToolCall(ctx, acpv1.ToolCall{ToolCallID: "call_1", Title: "run"}); err != nil {
		return err
	}
	return t.UpdateToolCall(ctx, acpv1.ToolCallUpdate{ToolCallID: "call_1", Status: acpv1.Ptr(acpv1.ToolCallStatusCompleted)})
}

const (
	toolCall1  = upd + `{"sessionUpdate":"tool_call","toolCallId":"call_1","title":"run"}}}`
	toolDone1  = upd + `{"sessionUpdate":"tool_call_update","toolCallId":"call_1","status":"completed"}}}`
	loadS1     = `{"jsonrpc":"2.0","id":9,"method":"session/load","params":{"sessionId":"sess_1","cwd":"/w","mcpServers":[]}}`
	loadedS1   = `{"jsonrpc":"2.0","id":9,"result":{}}`
	userTwo    = upd + `{"sessionUpdate":"user_message_chunk","content":{"type":"text","text":"two"}}}}`
	sayTwo     = upd + `{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"two"}}}}`
	promptTwo  = `{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"sessionId":"sess_1","prompt":[{"type":"text","text":"two"}]}}`
	endTurnTwo = `{"jsonrpc":"2.0","id":3,"result":{"stopReason":"end_turn"}}`
)

// TestLoadReplays: session/load replays the conversation in order, the
// user's prompts as user_message_chunk, then the agent's chunks, plan and
// tool calls, before its answer; on the same connection and on another
// that shares the store.
func TestLoadReplays(t *testing.T) {
	store := &acpv1.MemoryStore{}
	opts := &acpv1.TurnOptions{Store: store}
	p := turnPeer(t, busyTurn, opts, allSessions(), true)
	p.send(promptHi)
	p.expect(sayHi, planA, toolCall1, toolDone1, endTurn2)
	p.send(promptTwo)
	p.expect(sayTwo, planA, toolCall1, toolDone1, endTurnTwo)
	history := []string{userHi, sayHi, planA, toolCall1, toolDone1, userTwo, sayTwo, planA, toolCall1, toolDone1}
	p.send(loadS1)
	p.expect(append(history, loadedS1)...)

	// Another connection, the same store: the session loads there too, and
	// its next turn adds to the history.
	q := turnPeer(t, busyTurn, &acpv1.TurnOptions{Store: store, NewID: counter()}, allSessions(), false)
	q.send(loadS1)
	q.expect(append(history, loadedS1)...)
	q.send(promptHi)
	q.expect(sayHi, planA, toolCall1, toolDone1, endTurn2)
	rec, err := store.Load(context.Background(), "sess_1")
	if err != nil || rec.Updates != 15 || rec.Turn.State != acpv1.TurnEnded || string(rec.Turn.StopReason) != `"end_turn"` {
		t.Errorf("the record: %+v, %v", rec, err)
	}
}

// TestLoadBounded: past the store's bound the oldest updates go, and the
// answer to session/load says how many in its _meta.
func TestLoadBounded(t *testing.T) {
	p := turnPeer(t, busyTurn, &acpv1.TurnOptions{Store: &acpv1.MemoryStore{MaxUpdates: 3}}, allSessions(), true)
	p.send(promptHi)
	p.expect(sayHi, planA, toolCall1, toolDone1, endTurn2)
	p.send(loadS1)
	p.expect(planA, toolCall1, toolDone1, `{"jsonrpc":"2.0","id":9,"result":{"_meta":{"acpgen.dev/historyDropped":2}}}`)
}

// TestLoadOwnReplay: an agent that keeps its own history replays it with
// TurnOptions.Replay instead.
func TestLoadOwnReplay(t *testing.T) {
	var r *acpv1.TurnRunner
	opts := &acpv1.TurnOptions{NewID: counter(), Replay: func(ctx context.Context, id acpv1.SessionID) error {
		return r.Update(ctx, id, acpv1.NewSessionUpdateAgentMessageChunk(acpv1.NewContentBlockText("from the agent")))
	}}
	p := newWirePeer(t, func(w io.Writer, rd io.Reader) interface{ Done() <-chan struct{} } {
		return acpv1.NewAgentSideConnectionFunc(func(c *acpv1.AgentSideConnection) acpv1.Agent {
			r = acpv1.NewTurnRunner(c, echo, opts)
			return &turnAgent{TurnRunner: r, caps: allSessions()}
		}, w, rd)
	})
	p.send(initV1)
	p.recv()
	p.send(newSession)
	p.recv()
	p.send(promptHi)
	p.expect(sayHi, endTurn2)
	p.send(loadS1)
	p.expect(upd+`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"from the agent"}}}}`, loadedS1)
}

// TestLoadUnknown: loading a session no store has is -32002.
func TestLoadUnknown(t *testing.T) {
	p := turnPeer(t, echo, nil, allSessions(), false)
	p.send(loadS1)
	if got := p.recv(); !strings.Contains(got, `"code":-32002`) {
		t.Errorf("got %s", got)
	}
}

// TestSessionsListDeleteResume: list pages the sessions, by cwd;
// resume serves a session without replay; delete removes it.
func TestSessionsListDeleteResume(t *testing.T) {
	p := turnPeer(t, echo, &acpv1.TurnOptions{Modes: &acpv1.SessionModeState{CurrentModeID: "ask",
		AvailableModes: []acpv1.SessionMode{{ID: "ask", Name: "Ask"}, {ID: "code", Name: "Code"}}}}, allSessions(), false)
	p.send(newSession)
	if got := p.recv(); !strings.Contains(got, `"sessionId":"sess_1","modes":{"currentModeId":"ask"`) {
		t.Fatalf("session/new: %s", got)
	}
	p.send(`{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":"/x","mcpServers":[]}}`)
	p.recv()
	p.send(`{"jsonrpc":"2.0","id":3,"method":"session/list","params":{"cwd":"/x"}}`)
	if got := p.recv(); !strings.Contains(got, `"sessions":[{"sessionId":"sess_2","cwd":"/x","updatedAt":`) {
		t.Errorf("session/list: %s", got)
	}
	p.send(`{"jsonrpc":"2.0","id":4,"method":"session/set_mode","params":{"sessionId":"sess_1","modeId":"code"}}`)
	p.expect(upd+`{"sessionUpdate":"current_mode_update","currentModeId":"code"}}}`, `{"jsonrpc":"2.0","id":4,"result":{}}`)
	p.send(`{"jsonrpc":"2.0","id":5,"method":"session/set_mode","params":{"sessionId":"sess_1","modeId":"fly"}}`)
	if got := p.recv(); !strings.Contains(got, `"code":-32602`) {
		t.Errorf("set_mode to no mode: %s", got)
	}
	p.send(`{"jsonrpc":"2.0","id":6,"method":"session/resume","params":{"sessionId":"sess_1","cwd":"/w"}}`)
	if got := p.recv(); !strings.HasPrefix(got, `{"jsonrpc":"2.0","id":6,"result":{"modes":{"currentModeId":"code"`) {
		t.Errorf("session/resume: %s", got)
	}
	p.send(`{"jsonrpc":"2.0","id":7,"method":"session/delete","params":{"sessionId":"sess_1"}}`)
	p.expect(`{"jsonrpc":"2.0","id":7,"result":{}}`)
	p.send(loadS1)
	if got := p.recv(); !strings.Contains(got, `"code":-32002`) {
		t.Errorf("load after delete: %s", got)
	}
	p.send(`{"jsonrpc":"2.0","id":8,"method":"session/list","params":{"cursor":"nonsense"}}`)
	if got := p.recv(); !strings.Contains(got, `"code":-32602`) {
		t.Errorf("a foreign cursor: %s", got)
	}
}

// TestSessionConfigOption: a new session has TurnOptions.ConfigOptions;
// session/set_config_option goes to SetConfigOption, whose options answer
// it and are what a session/load answers with after; without the hook it
// is -32601.
func TestSessionConfigOption(t *testing.T) {
	opts := &acpv1.TurnOptions{ConfigOptions: []acpv1.SessionConfigOption{acpv1.NewSessionConfigOptionBoolean("fast", "Fast", false)},
		SetConfigOption: func(ctx context.Context, id acpv1.SessionID, current []acpv1.SessionConfigOption, p *acpv1.SetSessionConfigOptionRequest) ([]acpv1.SessionConfigOption, error) {
			v, ok := p.Value.(*acpv1.SetSessionConfigOptionRequestBoolean)
			if !ok || p.ConfigID != "fast" || len(current) != 1 {
				return nil, acpv1.NewInvalidParamsError(nil)
			}
			return []acpv1.SessionConfigOption{acpv1.NewSessionConfigOptionBoolean("fast", "Fast", v.Value)}, nil
		}}
	p := turnPeer(t, echo, opts, allSessions(), false)
	p.send(newSession)
	if got := p.recv(); !strings.Contains(got, `"configOptions":[{"type":"boolean","currentValue":false,"id":"fast","name":"Fast"}]`) {
		t.Fatalf("session/new: %s", got)
	}
	p.send(`{"jsonrpc":"2.0","id":2,"method":"session/set_config_option","params":{"sessionId":"sess_1","configId":"fast","type":"boolean","value":true}}`)
	if got := p.recv(); !strings.Contains(got, `"id":2,"result":{"configOptions":[{"type":"boolean","currentValue":true,"id":"fast","name":"Fast"}]}`) {
		t.Errorf("session/set_config_option: %s", got)
	}
	p.send(loadS1)
	if got := p.recv(); !strings.Contains(got, `"id":9,"result":{"configOptions":[{"type":"boolean","currentValue":true,"id":"fast","name":"Fast"}]}`) {
		t.Errorf("session/load: %s", got)
	}
	q := turnPeer(t, echo, nil, nil, true)
	q.send(`{"jsonrpc":"2.0","id":2,"method":"session/set_config_option","params":{"sessionId":"sess_1","configId":"fast","type":"boolean","value":true}}`)
	if got := q.recv(); !strings.Contains(got, `"code":-32601`) {
		t.Errorf("without SetConfigOption: %s", got)
	}
}
