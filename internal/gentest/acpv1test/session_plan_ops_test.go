//go:build unstable_plan_operations || unstable

package acpv1test

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/acpgen/acpgen/generated/acpv1"
	"github.com/acpgen/acpgen/internal/conformance"
	"github.com/acpgen/acpgen/internal/conntest"
)

// planLines writes out the plans of s, in order: "id kind detail".
func planLines(s *acpv1.SessionState) []string {
	var out []string
	for _, p := range s.Snapshot().Plans {
		line := fmt.Sprintf("%s %s", p.ID, p.Kind)
		switch p.Kind {
		case acpv1.PlanKindItems:
			line += fmt.Sprintf(" %d", len(p.Entries))
		case acpv1.PlanKindMarkdown:
			line += " " + p.Content
		case acpv1.PlanKindFile:
			line += " " + p.URI
		}
		out = append(out, line)
	}
	return out
}

// TestSessionPlanOpsDrafts replays the plan operations examples of the
// corpus's draft plan page into one session.
func TestSessionPlanOpsDrafts(t *testing.T) {
	s := acpv1.NewSessionState("sess_abc123def456")
	var changes []string
	for _, m := range conformance.Messages(t, "v1") {
		if m.Page != "v1_draft_agent-plan" || m.Method != acpv1.MethodSessionUpdate {
			continue
		}
		var n acpv1.SessionNotification
		if err := n.UnmarshalJSON(m.Params); err != nil {
			t.Fatalf("%s: %v", m.Name, err)
		}
		changes = append(changes, describe(s.Apply(n.Update)))
	}
	want := []string{"plan main", "plan plan-1", "plan implementation-plan", "plan design-doc", "plan plan-1"}
	if !slices.Equal(changes, want) {
		t.Errorf("changes = %q, want %q", changes, want)
	}
	got := planLines(s)
	wantPlans := []string{"main items 3", "implementation-plan markdown ## Steps\n- [ ] Refactor module\n- [ ] Add tests", "design-doc file file:///tmp/plan.md"}
	if !slices.Equal(got, wantPlans) {
		t.Errorf("plans = %q, want %q", got, wantPlans)
	}
	// Removing a plan that is not there is no error and changes nothing.
	if c := s.Apply(acpv1.NewSessionUpdatePlanRemoved("nope")); !c.IsZero() {
		t.Errorf("removing an unknown plan changed %s", describe(c))
	}
}

// TestSendPlanWithPlanOperations: a client that advertised plan operations
// gets every plan as plan_update, and removals as plan_removed.
func TestSendPlanWithPlanOperations(t *testing.T) {
	ctx := conntest.Ctx(t)
	init := acpv1.NewInitializeRequest(1)
	init.ClientCapabilities = &acpv1.ClientCapabilities{}
	init.ClientCapabilities.Plan = &acpv1.PlanCapabilities{}
	agent, updates := planPair(t, init)
	client := acpv1.NewSessionState("s")
	for _, p := range []acpv1.PlanState{itemsPlan, {ID: "m", Kind: acpv1.PlanKindMarkdown, Content: "# x"}, {ID: "f", Kind: acpv1.PlanKindFile, URI: "file:///p"}} {
		if err := agent.SendPlan(ctx, "s", p); err != nil {
			t.Fatal(err)
		}
		u := conntest.Receive(t, updates, "session update")
		if _, ok := u.Value.(*acpv1.SessionUpdatePlanUpdate); !ok {
			t.Errorf("%s plan sent as %T, want plan_update", p.Kind, u.Value)
		}
		client.Apply(u)
	}
	if err := agent.RemovePlan(ctx, "s", "m"); err != nil {
		t.Fatal(err)
	}
	client.Apply(conntest.Receive(t, updates, "session update"))
	want := []string{"p items 1", "f file file:///p"}
	if got := planLines(client); !slices.Equal(got, want) {
		t.Errorf("the client's plans = %q, want %q", got, want)
	}
}

// TestSendPlanPlanOperationsNotAdvertised: built with plan operations, an
// agent still falls back to the v1 plan for a client that did not
// advertise them.
func TestSendPlanPlanOperationsNotAdvertised(t *testing.T) {
	ctx := conntest.Ctx(t)
	agent, updates := planPair(t, acpv1.NewInitializeRequest(1))
	if err := agent.SendPlan(ctx, "s", acpv1.PlanState{ID: "m", Kind: acpv1.PlanKindMarkdown}); !errors.Is(err, acpv1.ErrPlanNotRepresentable) {
		t.Errorf("SendPlan(markdown) = %v, want ErrPlanNotRepresentable", err)
	}
	if err := agent.SendPlan(ctx, "s", itemsPlan); err != nil {
		t.Fatal(err)
	}
	if u := conntest.Receive(t, updates, "session update"); u.Tag() != "plan" {
		t.Errorf("sent %q, want plan", u.Tag())
	}
}
