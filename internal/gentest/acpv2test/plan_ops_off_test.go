//go:build !unstable_plan_operations && !unstable

package acpv2test

import (
	"testing"

	"github.com/acpgen/acpgen/generated/acpv2"
	"github.com/acpgen/acpgen/internal/jsontest"
)

// planOpsBuild reports whether plan operations are built.
const planOpsBuild = false

// Without the feature, plan_update stays typed but its "file" and "markdown"
// contents are the plan content fallback, which keeps the plan id and
// re-encodes byte for byte.
func TestPlanOpsOffUnstableContentIsFallback(t *testing.T) {
	for _, c := range []struct {
		name, input, content, tag string
		planID                    acpv2.PlanID
	}{
		{"markdown", planOpsMarkdownInput, planOpsMarkdownContent, "markdown", "p1"},
		{"file", planOpsFileInput, planOpsFileContent, "file", "p2"},
	} {
		t.Run(c.name, func(t *testing.T) {
			n, v := planOpsContent(t, c.input)
			o, ok := v.(*acpv2.PlanUpdateContentOther)
			if !ok {
				t.Fatalf("plan content is %T, want *PlanUpdateContentOther", v)
			}
			if o.Tag != c.tag || o.IsCustom() {
				t.Errorf("Tag = %q, IsCustom() = %v, want %q, false", o.Tag, o.IsCustom(), c.tag)
			}
			if o.PlanID != c.planID {
				t.Errorf("PlanID = %q, want %q", o.PlanID, c.planID)
			}
			jsontest.AssertBytes(t, o.Raw, []byte(c.content))
			jsontest.AssertBytes(t, jsontest.Marshal(t, n), []byte(c.input))
		})
	}
}

// Without the feature, plan_removed is the SessionUpdate fallback and
// re-encodes byte for byte.
func TestPlanOpsOffPlanRemovedIsFallback(t *testing.T) {
	n := planOpsDecode(t, planOpsRemovedInput)
	o, ok := n.Update.Value.(*acpv2.SessionUpdateOther)
	if !ok {
		t.Fatalf("update is %T, want *SessionUpdateOther", n.Update.Value)
	}
	if o.Tag != "plan_removed" || o.IsCustom() {
		t.Errorf("Tag = %q, IsCustom() = %v, want plan_removed, false", o.Tag, o.IsCustom())
	}
	jsontest.AssertBytes(t, o.Raw, []byte(planOpsRemovedUpdate))
	jsontest.AssertBytes(t, jsontest.Marshal(t, n), []byte(planOpsRemovedInput))
}
