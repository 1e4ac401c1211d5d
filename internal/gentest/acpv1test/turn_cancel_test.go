package acpv1test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/acpgen/acpgen/generated/acpv1"
)

// TestTurnCancelHeld: a prompt held behind a running turn, and the turn,
// both end cancelled at session/cancel; the held one never runs.
func TestTurnCancelHeld(t *testing.T) {
	started := make(chan struct{}, 2)
	p := turnPeer(t, func(ctx context.Context, turn *acpv1.Turn) error {
		started <- struct{}{}
		<-ctx.Done()
		return ctx.Err()
	}, nil, nil, true)
	p.send(promptHi)
	<-started
	p.send(strings.Replace(promptHi, `"id":2`, `"id":3`, 1))
	time.Sleep(20 * time.Millisecond) // the second prompt is held
	p.send(cancelS1)
	got := map[string]bool{p.recv(): true, p.recv(): true}
	for _, want := range []string{cancelled2, `{"jsonrpc":"2.0","id":3,"result":{"stopReason":"cancelled"}}`} {
		if !got[want] {
			t.Errorf("no %s among %v", want, got)
		}
	}
	select {
	case <-started:
		t.Error("the held prompt's turn ran after the cancel")
	default:
	}
}

// TestTurnCancelBeforeTurn: a prompt read right before a session/cancel
// is answered cancelled, whether its handler ran before the cancel (its
// turn cancelled) or after (no turn run); a prompt after the cancel runs.
func TestTurnCancelBeforeTurn(t *testing.T) {
	for i := 0; i < 10; i++ {
		p := turnPeer(t, func(ctx context.Context, turn *acpv1.Turn) error {
			if turn.Request().Prompt[0].Value.(*acpv1.ContentBlockText).Text == "wait" {
				<-ctx.Done()
			}
			return nil
		}, nil, nil, true)
		// Two lines in one write: the cancel is read right after the prompt.
		p.send(strings.Replace(promptHi, `"hi"`, `"wait"`, 1) + "\n" + cancelS1)
		p.expect(cancelled2)
		p.send(strings.Replace(promptHi, `"id":2`, `"id":3`, 1))
		p.expect(`{"jsonrpc":"2.0","id":3,"result":{"stopReason":"end_turn"}}`)
	}
}

// TestTurnCancelDuringPermission: session/cancel while the turn waits on
// a permission request withdraws it ($/cancel_request), the turn reads the
// cancelled outcome, its last words go out, and the prompt is answered
// cancelled after them.
func TestTurnCancelDuringPermission(t *testing.T) {
	p := turnPeer(t, func(ctx context.Context, turn *acpv1.Turn) error {
		res, err := turn.RequestPermission(ctx, acpv1.NewRequestPermissionRequest(turn.SessionID(),
			acpv1.ToolCallUpdate{ToolCallID: "call_1"}, []acpv1.PermissionOption{{OptionID: "allow", Name: "Allow", Kind: acpv1.PermissionOptionKindAllowOnce}}))
		if err != nil {
			return err
		}
		if _, ok := res.Outcome.Value.(*acpv1.RequestPermissionOutcomeCancelled); !ok {
			return turn.Say(ctx, "not cancelled")
		}
		return turn.Say(context.WithoutCancel(ctx), "permission: cancelled")
	}, nil, nil, true)
	p.send(promptHi)
	if got := p.recv(); !strings.HasPrefix(got, `{"jsonrpc":"2.0","id":1,"method":"session/request_permission"`) {
		t.Fatalf("got %s", got)
	}
	p.send(cancelS1)
	p.expect(`{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":1}}`,
		upd+`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"permission: cancelled"}}}}`,
		cancelled2)
	// The client's late answer changes nothing.
	p.send(`{"jsonrpc":"2.0","id":1,"result":{"outcome":{"outcome":"selected","optionId":"allow"}}}`)
	p.quiet(50 * time.Millisecond)
}

// TestTurnCancelDuringToolCall: a tool call in progress at session/cancel
// reports its end (with the context made without cancel) before the
// prompt's answer, cancelled.
func TestTurnCancelDuringToolCall(t *testing.T) {
	p := turnPeer(t, func(ctx context.Context, turn *acpv1.Turn) error {
		if err := turn.ToolCall(ctx, acpv1.ToolCall{ToolCallID: "call_1", Title: "run", Status: acpv1.Ptr(acpv1.ToolCallStatusInProgress)}); err != nil {
			return err
		}
		<-ctx.Done()
		return turn.UpdateToolCall(context.WithoutCancel(ctx), acpv1.ToolCallUpdate{ToolCallID: "call_1", Status: acpv1.Ptr(acpv1.ToolCallStatusFailed)})
	}, nil, nil, true)
	p.send(promptHi)
	p.expect(upd + `{"sessionUpdate":"tool_call","toolCallId":"call_1","title":"run","status":"in_progress"}}}`)
	p.send(cancelS1)
	p.expect(upd+`{"sessionUpdate":"tool_call_update","toolCallId":"call_1","status":"failed"}}}`, cancelled2)
}

// TestTurnCloseDuringTurn: session/close cancels the running turn, waits
// for its end and answers after the prompt's cancelled answer.
func TestTurnCloseDuringTurn(t *testing.T) {
	p := turnPeer(t, func(ctx context.Context, turn *acpv1.Turn) error {
		<-ctx.Done()
		return nil
	}, nil, allSessions(), true)
	p.send(promptHi)
	time.Sleep(20 * time.Millisecond)
	p.send(`{"jsonrpc":"2.0","id":3,"method":"session/close","params":{"sessionId":"sess_1"}}`)
	p.expect(cancelled2, `{"jsonrpc":"2.0","id":3,"result":{}}`)
	// Closed, not forgotten: it loads again.
	p.send(`{"jsonrpc":"2.0","id":4,"method":"session/load","params":{"sessionId":"sess_1","cwd":"/w","mcpServers":[]}}`)
	p.expect(userHi, `{"jsonrpc":"2.0","id":4,"result":{}}`)
}
