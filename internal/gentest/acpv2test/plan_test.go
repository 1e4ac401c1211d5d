package acpv2test

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/acpgen/acpgen/generated/acpv2"
	"github.com/acpgen/acpgen/internal/gentest/buildtag"
	"github.com/acpgen/acpgen/internal/jsontest"
)

// session/update params for the plan tests. Every input is compact, with the
// members of UpdateSessionNotification and of the plan_update variant in the
// order the encoder writes them, so that a fallback that keeps an object as
// received re-encodes byte for byte.
//
// In v2 the plan_update update and its "items" content are stable; the "file"
// and "markdown" contents and the plan_removed update come with
// unstable_plan_operations (or unstable).
const (
	// planOpsItemsInput is a plan_update with structured entries.
	planOpsItemsInput = `{"sessionId":"sess_plan","update":{"sessionUpdate":"plan_update","plan":{"type":"items","planId":"p3","entries":[{"content":"Step one","priority":"medium","status":"completed"},{"content":"Step two","priority":"high","status":"pending"}]}}}`

	// planOpsMarkdownContent is markdown plan content.
	planOpsMarkdownContent = `{"type":"markdown","planId":"p1","content":"# Plan\n- [ ] write tests","_meta":{"n":9007199254740993}}`

	// planOpsMarkdownInput is a plan_update with markdown content.
	planOpsMarkdownInput = `{"sessionId":"sess_plan","update":{"sessionUpdate":"plan_update","plan":` + planOpsMarkdownContent + `},"_meta":{"trace":"t1"}}`

	// planOpsFileContent is plan content pointing at a file.
	planOpsFileContent = `{"type":"file","planId":"p2","uri":"file:///home/user/project/PLAN.md"}`

	// planOpsFileInput is a plan_update pointing at a file.
	planOpsFileInput = `{"sessionId":"sess_plan","update":{"sessionUpdate":"plan_update","plan":` + planOpsFileContent + `}}`

	// planOpsRemovedUpdate removes a plan.
	planOpsRemovedUpdate = `{"sessionUpdate":"plan_removed","planId":"p1","_meta":{"why":"done"}}`

	// planOpsRemovedInput is session/update params around planOpsRemovedUpdate.
	planOpsRemovedInput = `{"sessionId":"sess_plan","update":` + planOpsRemovedUpdate + `}`

	// planOpsCustomContent is plan content of a type no schema defines.
	planOpsCustomContent = `{"type":"_custom","planId":"p9","extra":{"n":9007199254740993}}`

	// planOpsCustomInput is a plan_update carrying planOpsCustomContent.
	planOpsCustomInput = `{"sessionId":"sess_plan","update":{"sessionUpdate":"plan_update","plan":` + planOpsCustomContent + `}}`
)

// planOpsDecode decodes session/update params, failing the test on error.
func planOpsDecode(t *testing.T, input string) acpv2.UpdateSessionNotification {
	t.Helper()
	var n acpv2.UpdateSessionNotification
	if err := json.Unmarshal([]byte(input), &n); err != nil {
		t.Fatalf("decode %s: %v", input, err)
	}
	if n.SessionID != "sess_plan" {
		t.Errorf("SessionID = %q, want sess_plan", n.SessionID)
	}
	return n
}

// planOpsContent decodes input and returns the plan content of its
// plan_update, which is typed in every build.
func planOpsContent(t *testing.T, input string) (acpv2.UpdateSessionNotification, acpv2.PlanUpdateContentVariant) {
	t.Helper()
	n := planOpsDecode(t, input)
	switch u := n.Update.Value.(type) {
	case *acpv2.SessionUpdatePlanUpdate:
		if u.Plan.Value == nil {
			t.Fatal("plan content is nil")
		}
		return n, u.Plan.Value
	default:
		t.Fatalf("update is %T, want *SessionUpdatePlanUpdate", n.Update.Value)
	}
	return n, nil
}

// An "items" plan is stable: typed, with its plan id, in every build.
func TestPlanOpsItemsTyped(t *testing.T) {
	n, c := planOpsContent(t, planOpsItemsInput)
	switch p := c.(type) {
	case *acpv2.PlanUpdateContentItems:
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
}

// Plan content of an unknown type is the fallback in every build: it keeps
// the plan id, which the v2 schema requires of it, and re-encodes byte for byte.
func TestPlanOpsCustomPlanContent(t *testing.T) {
	n, c := planOpsContent(t, planOpsCustomInput)
	o, ok := c.(*acpv2.PlanUpdateContentOther)
	if !ok {
		t.Fatalf("plan content is %T, want *PlanUpdateContentOther", c)
	}
	if o.Tag != "_custom" || !o.IsCustom() {
		t.Errorf("Tag = %q, IsCustom() = %v, want _custom, true", o.Tag, o.IsCustom())
	}
	if o.PlanID != "p9" {
		t.Errorf("PlanID = %q, want p9", o.PlanID)
	}
	jsontest.AssertBytes(t, o.Raw, []byte(planOpsCustomContent))
	jsontest.AssertBytes(t, jsontest.Marshal(t, n), []byte(planOpsCustomInput))
}

// The plan updates decode in every build and keep their tag; plan_update is
// always typed, plan_removed only with the feature.
func TestPlanOpsUpdatesDecodeWithTag(t *testing.T) {
	for _, c := range []struct {
		name, input, tag string
		unstable         bool // the update variant itself needs the feature
	}{
		{"items", planOpsItemsInput, "plan_update", false},
		{"markdown", planOpsMarkdownInput, "plan_update", false},
		{"file", planOpsFileInput, "plan_update", false},
		{"custom content", planOpsCustomInput, "plan_update", false},
		{"removed", planOpsRemovedInput, "plan_removed", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			n := planOpsDecode(t, c.input)
			if tag := n.Update.Tag(); tag != c.tag {
				t.Errorf("Tag() = %q, want %q", tag, c.tag)
			}
			_, other := n.Update.Value.(*acpv2.SessionUpdateOther)
			if want := c.unstable && !planOpsBuild; other != want {
				t.Errorf("update is %T, fallback want %v (planOpsBuild = %v)", n.Update.Value, want, planOpsBuild)
			}
			jsontest.AssertSame(t, jsontest.Marshal(t, n), []byte(c.input))
		})
	}
}

// Plan content without a plan id is a decode error in every build: the
// fallback requires planId in v2, and so does every typed variant.
func TestPlanOpsContentWithoutPlanIDIsError(t *testing.T) {
	for _, c := range []struct{ name, content string }{
		{"custom", `{"type":"_custom","extra":{"n":9007199254740993}}`},
		{"future", `{"type":"outline","sections":[]}`},
		{"items", `{"type":"items","entries":[]}`},
		{"file", `{"type":"file","uri":"file:///home/user/project/PLAN.md"}`},
		{"markdown", `{"type":"markdown","content":"# Plan"}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			var u acpv2.PlanUpdateContent
			err := json.Unmarshal([]byte(c.content), &u)
			var te *json.UnmarshalTypeError
			if !errors.As(err, &te) {
				t.Fatalf("decode %s: error %v (%T), want *json.UnmarshalTypeError", c.content, err, err)
			}
			if !strings.Contains(te.Field, "planId") && !strings.Contains(te.Value, "planId") {
				t.Errorf("error %q (field %q, value %q) does not name planId", err, te.Field, te.Value)
			}
			if u.Value != nil {
				t.Errorf("Value = %T after a failed decode, want nil", u.Value)
			}

			params := `{"sessionId":"sess_plan","update":{"sessionUpdate":"plan_update","plan":` + c.content + `}}`
			var n acpv2.UpdateSessionNotification
			err = json.Unmarshal([]byte(params), &n)
			if !errors.As(err, &te) {
				t.Fatalf("decode %s: error %v (%T), want *json.UnmarshalTypeError", params, err, err)
			}
		})
	}
}

// v2 ClientCapabilities has no plan capability in any build: a "plan" member
// is kept as received and written back after the named members.
func TestPlanOpsClientCapabilitiesHasNoPlan(t *testing.T) {
	if buildtag.Unstable && !planOpsBuild {
		t.Fatal("the unstable tag is on but plan operations are not built")
	}
	if _, ok := reflect.TypeOf(acpv2.ClientCapabilities{}).FieldByName("Plan"); ok {
		t.Fatal("ClientCapabilities has a Plan field")
	}
	const in = `{"plan":{},"_meta":{"k":1}}`
	var caps acpv2.ClientCapabilities
	if err := json.Unmarshal([]byte(in), &caps); err != nil {
		t.Fatalf("decode %s: %v", in, err)
	}
	jsontest.AssertBytes(t, jsontest.Marshal(t, caps), []byte(`{"_meta":{"k":1},"plan":{}}`))
}
