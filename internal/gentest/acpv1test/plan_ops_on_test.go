//go:build unstable_plan_operations || unstable

package acpv1test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/acpgen/acpgen/generated/acpv1"
	"github.com/acpgen/acpgen/internal/deftest"
	"github.com/acpgen/acpgen/internal/jsontest"
)

// planOpsBuild reports whether plan operations are built.
const planOpsBuild = true

// planOpsContent decodes input and returns the plan content of its typed
// plan_update.
func planOpsContent(t *testing.T, input string) (acpv1.SessionNotification, acpv1.PlanUpdateContentVariant) {
	t.Helper()
	n := planOpsDecode(t, input)
	switch u := n.Update.Value.(type) {
	case *acpv1.SessionUpdatePlanUpdate:
		if u.Plan.Value == nil {
			t.Fatal("plan content is nil")
		}
		return n, u.Plan.Value
	default:
		t.Fatalf("update is %T, want *SessionUpdatePlanUpdate", n.Update.Value)
	}
	return n, nil
}

func TestPlanOpsOnTypedPlanContent(t *testing.T) {
	t.Run("items", func(t *testing.T) {
		n, c := planOpsContent(t, planOpsItemsInput)
		switch p := c.(type) {
		case *acpv1.PlanUpdateContentItems:
			if p.PlanID != "p3" {
				t.Errorf("PlanID = %q, want p3", p.PlanID)
			}
			jsontest.AssertShape(t, &p.Entries, jsontest.List{
				jsontest.Some{"Content": "Step one", "Priority": "medium", "Status": "completed"},
				jsontest.Some{"Content": "Step two", "Priority": "high", "Status": "pending"},
			})
		default:
			t.Fatalf("plan content is %T, want *PlanUpdateContentItems", c)
		}
		jsontest.AssertSame(t, jsontest.Marshal(t, n), []byte(planOpsItemsInput))
	})
}

// TestPlanOpsOnShared runs the plan operation cases both versions share.
func TestPlanOpsOnShared(t *testing.T) {
	jsontest.RunDefCases(t, definitions, "SessionNotification", deftest.PlanOps(planOpsMarkdownInput, planOpsFileInput, planOpsRemovedInput))
}

// The v1 schema's PlanUpdateContent has no "other" branch, so its fallback has
// no typed plan id; the id is kept in Raw, which re-encodes byte for byte.
func TestPlanOpsOnCustomPlanContent(t *testing.T) {
	n, c := planOpsContent(t, planOpsCustomInput)
	o, ok := c.(*acpv1.PlanUpdateContentOther)
	if !ok {
		t.Fatalf("plan content is %T, want *PlanUpdateContentOther", c)
	}
	if o.Tag != "_custom" || !o.IsCustom() {
		t.Errorf("Tag = %q, IsCustom() = %v, want _custom, true", o.Tag, o.IsCustom())
	}
	jsontest.AssertBytes(t, o.Raw, []byte(planOpsCustomContent))
	var id string
	if err := json.Unmarshal(planOpsMember(t, o.Raw, "planId"), &id); err != nil || id != "p9" {
		t.Errorf("planId in Raw = %q (%v), want p9", id, err)
	}
	// Should the fallback ever gain a typed plan id, it must hold the id too.
	if f := reflect.ValueOf(o).Elem().FieldByName("PlanID"); f.IsValid() && f.String() != "p9" {
		t.Errorf("PlanID field = %q, want p9", f.String())
	}
	jsontest.AssertBytes(t, jsontest.Marshal(t, n), []byte(planOpsCustomInput))

	var u acpv1.PlanUpdateContent
	if err := json.Unmarshal([]byte(planOpsCustomContent), &u); err != nil {
		t.Fatalf("decode plan content: %v", err)
	}
	if u.Tag() != "_custom" {
		t.Errorf("Tag() = %q, want _custom", u.Tag())
	}
	jsontest.AssertBytes(t, jsontest.Marshal(t, u), []byte(planOpsCustomContent))
}

// Plan content built in Go is written with its tags and plan id.
func TestPlanOpsOnEncodeFromGo(t *testing.T) {
	n := acpv1.SessionNotification{
		SessionID: "sess_plan",
		Update: acpv1.SessionUpdate{Value: &acpv1.SessionUpdatePlanUpdate{PlanUpdate: acpv1.PlanUpdate{
			Plan: acpv1.PlanUpdateContent{Value: &acpv1.PlanUpdateContentFile{PlanFile: acpv1.PlanFile{PlanID: "p2", URI: "file:///home/user/project/PLAN.md"}}},
		}}},
	}
	jsontest.AssertSame(t, jsontest.Marshal(t, n), []byte(planOpsFileInput))

	r := acpv1.SessionNotification{
		SessionID: "sess_plan",
		Update:    acpv1.SessionUpdate{Value: &acpv1.SessionUpdatePlanRemoved{PlanRemoved: acpv1.PlanRemoved{PlanID: "p1", Meta: json.RawMessage(`{"why":"done"}`)}}},
	}
	jsontest.AssertSame(t, jsontest.Marshal(t, r), []byte(planOpsRemovedInput))
}

func TestPlanOpsOnClientCapabilities(t *testing.T) {
	var caps acpv1.ClientCapabilities
	caps.Terminal = new(bool)
	*caps.Terminal = true
	caps.Plan = &acpv1.PlanCapabilities{}
	b := jsontest.Marshal(t, caps)
	if got := string(planOpsMember(t, b, "plan")); got != `{}` {
		t.Errorf(`"plan" = %s, want {} in %s`, got, b)
	}
	jsontest.AssertSame(t, b, []byte(planOpsCapsInput))

	var back acpv1.ClientCapabilities
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatalf("decode %s: %v", b, err)
	}
	if back.Plan == nil {
		t.Errorf("Plan is nil after decoding %s", b)
	}

	var none acpv1.ClientCapabilities
	if err := json.Unmarshal([]byte(planOpsCapsWithoutPlan), &none); err != nil {
		t.Fatalf("decode %s: %v", planOpsCapsWithoutPlan, err)
	}
	if none.Plan != nil {
		t.Errorf("Plan = %+v, want nil without the member", none.Plan)
	}
	jsontest.AssertSame(t, jsontest.Marshal(t, none), []byte(planOpsCapsWithoutPlan))
}
