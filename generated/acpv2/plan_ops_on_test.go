//go:build unstable_plan_operations || unstable

package acpv2

import (
	"encoding/json"
	"testing"

	"github.com/acpgen/acpgen/internal/deftest"
	"github.com/acpgen/acpgen/internal/jsontest"
)

// planOpsBuild reports whether plan operations are built.
const planOpsBuild = true

// TestPlanOpsOnShared runs the plan operation cases both versions share.
func TestPlanOpsOnShared(t *testing.T) {
	jsontest.RunDefCases(t, definitions, "UpdateSessionNotification", deftest.PlanOps(planOpsMarkdownInput, planOpsFileInput, planOpsRemovedInput))
}

// Plan content built in Go is written with its tags and plan id.
func TestPlanOpsOnEncodeFromGo(t *testing.T) {
	n := UpdateSessionNotification{
		SessionID: "sess_plan",
		Update: SessionUpdate{Value: &SessionUpdatePlanUpdate{PlanUpdate{
			Plan: PlanUpdateContent{Value: &PlanUpdateContentFile{PlanFile{PlanID: "p2", URI: "file:///home/user/project/PLAN.md"}}},
		}}},
	}
	jsontest.AssertSame(t, jsontest.Marshal(t, n), []byte(planOpsFileInput))

	r := UpdateSessionNotification{
		SessionID: "sess_plan",
		Update:    SessionUpdate{Value: &SessionUpdatePlanRemoved{PlanRemoved{PlanID: "p1", Meta: json.RawMessage(`{"why":"done"}`)}}},
	}
	jsontest.AssertSame(t, jsontest.Marshal(t, r), []byte(planOpsRemovedInput))
}
