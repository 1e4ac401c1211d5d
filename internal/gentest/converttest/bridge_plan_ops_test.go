//go:build unstable_plan_operations || unstable

package converttest

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/acpgen/acpgen/generated/acpv1"
	"github.com/acpgen/acpgen/generated/acpv2"
)

// planAgent is a v2 agent whose turn sends a markdown plan, an items plan
// and the removal of a plan.
type planAgent struct{ turnAgent }

func (a *planAgent) Prompt(ctx context.Context, p *acpv2.PromptRequest) (*acpv2.PromptResponse, error) {
	go func() {
		<-ctx.Done()
		send := func(u acpv2.SessionUpdate) {
			_ = a.conn.UpdateSession(context.Background(), acpv2.NewUpdateSessionNotification(p.SessionID, u))
		}
		send(acpv2.NewSessionUpdatePlanUpdate(acpv2.NewPlanUpdateContentMarkdown("notes", "# Notes")))
		send(acpv2.NewSessionUpdatePlanUpdate(acpv2.NewPlanUpdateContentItems("p1", []acpv2.PlanEntry{
			{Content: "step", Priority: acpv2.PlanEntryPriorityLow, Status: acpv2.PlanEntryStatusCompleted}})))
		send(acpv2.NewSessionUpdatePlanRemoved("p1"))
		send(acpv2.SessionUpdate{Value: &acpv2.SessionUpdateStateUpdate{StateUpdate: acpv2.StateUpdate{
			Value: &acpv2.StateUpdateIdle{IdleStateUpdate: acpv2.NewIdleStateUpdateEndTurn()}}}})
	}()
	return acpv2.NewPromptResponse("m1"), nil
}

// TestBridgePlanRules checks the seeds' plan rules: a v1 client that
// advertised the plan operations gets every plan, one that did not gets
// the items plan as v1's plan and nothing else, and the agent hears of
// what was not sent.
func TestBridgePlanRules(t *testing.T) {
	for _, c := range []struct {
		name    string
		plan    bool
		want    []string
		dropped int
	}{
		{"without the plan operations", false, []string{"plan"}, 2},
		{"with the plan operations", true, []string{"plan_update", "plan_update", "plan_removed"}, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			var mu sync.Mutex
			dropped := 0
			rec, _ := startBridgeWith(t, &planAgent{}, func(*acpv2.UpdateSessionNotification, error) {
				mu.Lock()
				dropped++
				mu.Unlock()
			})
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			init := acpv1.NewInitializeRequest(1)
			init.ClientInfo = &acpv1.Implementation{Name: "v1-client", Version: "1"}
			if c.plan {
				init.ClientCapabilities = &acpv1.ClientCapabilities{}
				init.ClientCapabilities.Plan = &acpv1.PlanCapabilities{}
			}
			if _, err := rec.conn.Initialize(ctx, init); err != nil {
				t.Fatal(err)
			}
			if r, err := rec.conn.Prompt(ctx, acpv1.NewPromptRequest("s1", []acpv1.ContentBlock{acpv1.NewContentBlockText("plan")})); err != nil || r.StopReason != acpv1.StopReasonEndTurn {
				t.Fatalf("prompt: %+v %v", r, err)
			}
			rec.mu.Lock()
			var tags []string
			for _, u := range rec.updates {
				tags = append(tags, u.Tag())
			}
			rec.mu.Unlock()
			mu.Lock()
			defer mu.Unlock()
			if !slices.Equal(tags, c.want) || dropped != c.dropped {
				t.Errorf("updates %q, %d not sent; want %q, %d", tags, dropped, c.want, c.dropped)
			}
		})
	}
}
