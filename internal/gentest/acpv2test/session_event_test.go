package acpv2test

import (
	"context"
	"testing"

	"github.com/acpgen/acpgen/generated/acpv2"
	"github.com/acpgen/acpgen/internal/conntest"
)

// TestSessionEventState: an event carries the plan and tool call it
// changed as it left them, not as the updates after it did.
func TestSessionEventState(t *testing.T) {
	ctx := conntest.Ctx(t)
	a := &sessionAgent{}
	a.onPrompt = func(ctx context.Context, id acpv2.SessionID) {
		for _, n := range []int{1, 2} {
			a.conn.SendPlan(ctx, id, acpv2.PlanState{ID: "p", Kind: acpv2.PlanKindItems, Entries: make([]acpv2.PlanEntry, n)})
		}
		for _, title := range []string{"first", "second"} {
			u := acpv2.ToolCallUpdate{ToolCallID: "t", Title: acpv2.Some(title)}
			a.conn.UpdateSession(ctx, acpv2.NewUpdateSessionNotification(id, acpv2.NewSessionUpdateToolCallUpdate(u)))
		}
	}
	client := &routingClient{}
	conn := connect(t, a, client)
	if _, err := conn.Initialize(ctx, acpv2.NewInitializeRequest(2, testInfo)); err != nil {
		t.Fatal(err)
	}
	s, _, err := client.NewSession(ctx, conn, acpv2.NewNewSessionRequest("/"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Prompt(ctx, []acpv2.ContentBlock{acpv2.NewContentBlockText("hi")}); err != nil {
		t.Fatal(err)
	}
	var events []acpv2.SessionEvent
	for range 4 {
		e, err := s.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		events = append(events, e)
	}
	for i, e := range events[:2] {
		if len(e.Plans) != 1 || len(e.Plans[0].Entries) != i+1 {
			t.Errorf("plan event %d carries %+v, want the plan with %d entries", i, e.Plans, i+1)
		}
	}
	for i, want := range []string{"first", "second"} {
		e := events[2+i]
		if len(e.ToolCalls) != 1 || e.ToolCalls[0].Title == nil || *e.ToolCalls[0].Title != want {
			t.Errorf("tool call event %d carries %+v, want title %q", i, e.ToolCalls, want)
		}
	}
}
