package acpv1test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/acpgen/acpgen/generated/acpv1"
	"github.com/acpgen/acpgen/internal/gentest/buildtag"
	"github.com/acpgen/acpgen/internal/jsontest"
)

// session/update params for the plan tests. Every input is compact, with the
// members of SessionNotification in the order the encoder writes them, so that
// a fallback that keeps the update as received re-encodes byte for byte.
//
// Without unstable_plan_operations (and without unstable), v1 knows only the
// stable "plan" update: "plan_update" and "plan_removed" are unknown updates.
const (
	// planOpsStableInput is the stable v1 "plan" update with flattened entries.
	planOpsStableInput = `{"sessionId":"sess_plan","update":{"sessionUpdate":"plan","entries":[{"content":"Write the tests","priority":"high","status":"in_progress"},{"content":"Ship it","priority":"low","status":"pending"}]}}`

	// planOpsMarkdownInput is a plan_update with markdown content.
	planOpsMarkdownInput = `{"sessionId":"sess_plan","update":{"sessionUpdate":"plan_update","plan":{"type":"markdown","planId":"p1","content":"# Plan\n- [ ] write tests","_meta":{"n":9007199254740993}}},"_meta":{"trace":"t1"}}`

	// planOpsFileInput is a plan_update pointing at a file.
	planOpsFileInput = `{"sessionId":"sess_plan","update":{"sessionUpdate":"plan_update","plan":{"type":"file","planId":"p2","uri":"file:///home/user/project/PLAN.md"}}}`

	// planOpsItemsInput is a plan_update with structured entries.
	planOpsItemsInput = `{"sessionId":"sess_plan","update":{"sessionUpdate":"plan_update","plan":{"type":"items","planId":"p3","entries":[{"content":"Step one","priority":"medium","status":"completed"},{"content":"Step two","priority":"high","status":"pending"}]}}}`

	// planOpsRemovedInput removes a plan.
	planOpsRemovedInput = `{"sessionId":"sess_plan","update":{"sessionUpdate":"plan_removed","planId":"p1","_meta":{"why":"done"}}}`

	// planOpsCustomContent is plan content of a type no schema defines.
	planOpsCustomContent = `{"type":"_custom","planId":"p9","extra":{"n":9007199254740993}}`

	// planOpsCustomInput is a plan_update carrying planOpsCustomContent.
	planOpsCustomInput = `{"sessionId":"sess_plan","update":{"sessionUpdate":"plan_update","plan":` + planOpsCustomContent + `}}`

	// planOpsCapsInput advertises plan support next to a stable capability.
	planOpsCapsInput = `{"terminal":true,"plan":{}}`

	// planOpsCapsWithoutPlan is planOpsCapsInput without the plan member.
	planOpsCapsWithoutPlan = `{"terminal":true}`
)

// planOpsUpdateInputs are the inputs that only plan operations define, with
// the update object each one holds.
var planOpsUpdateInputs = []struct {
	name   string
	input  string
	tag    string // sessionUpdate value
	update string // the "update" member, exactly as in input
}{
	{"markdown", planOpsMarkdownInput, "plan_update", `{"sessionUpdate":"plan_update","plan":{"type":"markdown","planId":"p1","content":"# Plan\n- [ ] write tests","_meta":{"n":9007199254740993}}}`},
	{"file", planOpsFileInput, "plan_update", `{"sessionUpdate":"plan_update","plan":{"type":"file","planId":"p2","uri":"file:///home/user/project/PLAN.md"}}`},
	{"items", planOpsItemsInput, "plan_update", `{"sessionUpdate":"plan_update","plan":{"type":"items","planId":"p3","entries":[{"content":"Step one","priority":"medium","status":"completed"},{"content":"Step two","priority":"high","status":"pending"}]}}`},
	{"removed", planOpsRemovedInput, "plan_removed", `{"sessionUpdate":"plan_removed","planId":"p1","_meta":{"why":"done"}}`},
	{"custom content", planOpsCustomInput, "plan_update", `{"sessionUpdate":"plan_update","plan":` + planOpsCustomContent + `}`},
}

// planOpsDecode decodes session/update params, failing the test on error.
func planOpsDecode(t *testing.T, input string) acpv1.SessionNotification {
	t.Helper()
	var n acpv1.SessionNotification
	if err := json.Unmarshal([]byte(input), &n); err != nil {
		t.Fatalf("decode %s: %v", input, err)
	}
	if n.SessionID != "sess_plan" {
		t.Errorf("SessionID = %q, want sess_plan", n.SessionID)
	}
	return n
}

// planOpsMember returns the member key of the JSON object b, kept as written.
func planOpsMember(t *testing.T, b []byte, key string) json.RawMessage {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("not a JSON object %s: %v", b, err)
	}
	v, ok := m[key]
	if !ok {
		t.Fatalf("no %q in %s", key, b)
	}
	return v
}

// The stable "plan" update is typed, with its entries, in every build.
func TestPlanOpsStablePlanUpdate(t *testing.T) {
	n := planOpsDecode(t, planOpsStableInput)
	p, ok := n.Update.Value.(*acpv1.SessionUpdatePlan)
	if !ok {
		t.Fatalf("update is %T, want *SessionUpdatePlan", n.Update.Value)
	}
	if tag := n.Update.Tag(); tag != "plan" {
		t.Errorf("Tag() = %q, want plan", tag)
	}
	jsontest.AssertShape(t, &p.Entries, jsontest.List{
		jsontest.Some{"Content": "Write the tests", "Priority": "high", "Status": "in_progress"},
		jsontest.Some{"Content": "Ship it", "Priority": "low", "Status": "pending"},
	})
	jsontest.AssertSame(t, jsontest.Marshal(t, n), []byte(planOpsStableInput))
}

// The plan-operation updates decode in every build, and keep their tag:
// typed with the feature, as the SessionUpdate fallback without it.
func TestPlanOpsUpdatesDecodeWithTag(t *testing.T) {
	for _, c := range planOpsUpdateInputs {
		t.Run(c.name, func(t *testing.T) {
			n := planOpsDecode(t, c.input)
			if tag := n.Update.Tag(); tag != c.tag {
				t.Errorf("Tag() = %q, want %q", tag, c.tag)
			}
			_, other := n.Update.Value.(*acpv1.SessionUpdateOther)
			if other == planOpsBuild {
				t.Errorf("update is %T with planOpsBuild = %v", n.Update.Value, planOpsBuild)
			}
			jsontest.AssertSame(t, jsontest.Marshal(t, n), []byte(c.input))
		})
	}
}

// ClientCapabilities has a Plan field exactly when plan operations are built,
// and the umbrella tag builds them.
func TestPlanOpsClientCapabilitiesFieldPerBuild(t *testing.T) {
	if buildtag.Unstable && !planOpsBuild {
		t.Fatal("the unstable tag is on but plan operations are not built")
	}
	f, ok := reflect.TypeOf(acpv1.ClientCapabilities{}).FieldByName("Plan")
	if ok != planOpsBuild {
		t.Fatalf("ClientCapabilities has Plan field: %v, want %v", ok, planOpsBuild)
	}
	if ok {
		if tag := f.Tag.Get("json"); tag != "plan,omitempty" {
			t.Errorf("Plan json tag = %q, want plan,omitempty", tag)
		}
	}
}
