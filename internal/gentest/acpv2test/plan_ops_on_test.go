//go:build unstable_plan_operations || unstable

package acpv2test

import (
	"encoding/json"
	"testing"

	"github.com/acpgen/acpgen/generated/acpv2"
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
	n := acpv2.UpdateSessionNotification{
		SessionID: "sess_plan",
		Update: acpv2.SessionUpdate{Value: &acpv2.SessionUpdatePlanUpdate{PlanUpdate: acpv2.PlanUpdate{
			Plan: acpv2.PlanUpdateContent{Value: &acpv2.PlanUpdateContentFile{PlanFile: acpv2.PlanFile{PlanID: "p2", URI: "file:///home/user/project/PLAN.md"}}},
		}}},
	}
	jsontest.AssertSame(t, jsontest.Marshal(t, n), []byte(planOpsFileInput))

	r := acpv2.UpdateSessionNotification{
		SessionID: "sess_plan",
		Update:    acpv2.SessionUpdate{Value: &acpv2.SessionUpdatePlanRemoved{PlanRemoved: acpv2.PlanRemoved{PlanID: "p1", Meta: json.RawMessage(`{"why":"done"}`)}}},
	}
	jsontest.AssertSame(t, jsontest.Marshal(t, r), []byte(planOpsRemovedInput))
}
