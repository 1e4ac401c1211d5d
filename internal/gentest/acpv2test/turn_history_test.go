package acpv2test

import (
	"context"
	"testing"

	"github.com/acpgen/acpgen/generated/acpv2"
)

// TestTurnResumeHistory: a session/resume with replayFrom start replays
// the conversation the runner retains, in order and as sent (the user
// message, the agent's chunks, the plan; no state updates, which the
// resume's snapshot replaces), on the same connection and on another that
// shares the store, then the current state, then the answer.
func TestTurnResumeHistory(t *testing.T) {
	store := &acpv2.MemoryStore{}
	turn := func(ctx context.Context, turn *acpv2.Turn) error {
		if err := turn.Say(ctx, "hi"); err != nil {
			return err
		}
		return turn.Update(ctx, acpv2.NewSessionUpdatePlanUpdate(acpv2.NewPlanUpdateContentItems("main", []acpv2.PlanEntry{
			{Content: "a", Priority: acpv2.PlanEntryPriorityHigh, Status: acpv2.PlanEntryStatusPending}})))
	}
	p := turnPeer(t, turn, &acpv2.TurnOptions{Store: store})
	sayHi := upd + `{"sessionUpdate":"agent_message_chunk","messageId":"msg_3","content":{"type":"text","text":"hi"}}}}`
	plan := upd + `{"sessionUpdate":"plan_update","plan":{"type":"items","planId":"main","entries":[{"content":"a","priority":"high","status":"pending"}]}}}}`
	p.send(promptHi)
	p.expect(acceptedHi, userHi, running, sayHi, plan, endTurn)
	resume := `{"jsonrpc":"2.0","id":5,"method":"session/resume","params":{"sessionId":"sess_1","cwd":"/w","replayFrom":{"type":"start"}}}`
	want := []string{userHi, sayHi, plan, endTurn, `{"jsonrpc":"2.0","id":5,"result":{}}`}
	p.send(resume)
	p.expect(want...)

	next := counter()
	q := turnPeer(t, turn, &acpv2.TurnOptions{Store: store, NewID: func(prefix string) string { return next(prefix + "b") }})
	q.send(resume)
	q.expect(want...)
	q.send(`{"jsonrpc":"2.0","id":6,"method":"session/list","params":{}}`)
	q.expect(`{"jsonrpc":"2.0","id":6,"result":{"sessions":[{"sessionId":"sess_1","cwd":"/w"},{"sessionId":"sess_b1","cwd":"/w"}]}}`)
}
