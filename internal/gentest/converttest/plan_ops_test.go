//go:build unstable_plan_operations || unstable

package converttest

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/acpgen/acpgen/generated/acpv1"
	"github.com/acpgen/acpgen/generated/acpv2"
	"github.com/acpgen/acpgen/generated/convert"
)

// planOpsBuild reports whether plan operations are built.
const planOpsBuild = true

// customContent is an unknown plan content, spaced so that a re-encoding
// would show.
const customContent = `{ "type" : "_diagram", "planId" : "p4", "nodes" : [1, 2,3], "big" : 9007199254740993 }`

func TestPlanOpsRoundTripJSON(t *testing.T) {
	tests := []struct {
		name     string
		json     string // the same on the wire in v1 and v2
		v1, v2   any    // the types the variants convert to
		v1Detail func(t *testing.T, u acpv1.SessionUpdateVariant)
		v2Detail func(t *testing.T, u acpv2.SessionUpdateVariant)
	}{
		{
			name: "items",
			json: `{"sessionUpdate":"plan_update","plan":{"type":"items","planId":"p1","entries":[
				{"content":"a","priority":"high","status":"pending","_meta":{"e":1}},
				{"content":"b","priority":"medium","status":"completed"}],"_meta":{"c":1}},"_meta":{"u":2}}`,
			v1: &acpv1.PlanUpdateContentItems{},
			v2: &acpv2.PlanUpdateContentItems{},
		},
		{
			name: "file",
			json: `{"sessionUpdate":"plan_update","plan":{"type":"file","planId":"p2","uri":"file:///PLAN.md","_meta":{"m":true}}}`,
			v1:   &acpv1.PlanUpdateContentFile{},
			v2:   &acpv2.PlanUpdateContentFile{},
		},
		{
			name: "markdown",
			json: `{"sessionUpdate":"plan_update","plan":{"type":"markdown","planId":"p3","content":"# Plan\n- [ ] tests","_meta":{"md":1}},"_meta":{"u":3}}`,
			v1:   &acpv1.PlanUpdateContentMarkdown{},
			v2:   &acpv2.PlanUpdateContentMarkdown{},
		},
		{
			name: "unknown content",
			json: `{"sessionUpdate":"plan_update","plan":` + customContent + `,"_meta":{"u":4}}`,
			v1:   &acpv1.PlanUpdateContentOther{},
			v2:   &acpv2.PlanUpdateContentOther{},
		},
		{
			name: "plan_removed",
			json: `{"sessionUpdate":"plan_removed","planId":"p5","_meta":{"why":"done"}}`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in1 := decodeV1(t, tc.json)
			in2 := decodeV2(t, tc.json)
			if in1.Tag() != in2.Tag() {
				t.Fatalf("tags %q and %q differ", in1.Tag(), in2.Tag())
			}

			out2, err := convert.SessionUpdateToV2(in1)
			if err != nil {
				t.Fatalf("SessionUpdateToV2: %v", err)
			}
			if reflect.TypeOf(out2.Value) != reflect.TypeOf(in2.Value) {
				t.Fatalf("v2 value is %T, want %T", out2.Value, in2.Value)
			}
			if tc.v2 != nil {
				c := out2.Value.(*acpv2.SessionUpdatePlanUpdate).Plan.Value
				if reflect.TypeOf(c) != reflect.TypeOf(tc.v2) {
					t.Errorf("v2 content is %T, want %T", c, tc.v2)
				}
			}
			if !reflect.DeepEqual(out2, in2) {
				t.Errorf("v1 -> v2 = %#v, want %#v", out2.Value, in2.Value)
			}
			sameJSON(t, mustMarshal(t, out2), tc.json)

			out1, err := convert.SessionUpdateToV1(in2)
			if err != nil {
				t.Fatalf("SessionUpdateToV1: %v", err)
			}
			if reflect.TypeOf(out1.Value) != reflect.TypeOf(in1.Value) {
				t.Fatalf("v1 value is %T, want %T", out1.Value, in1.Value)
			}
			if tc.v1 != nil {
				c := out1.Value.(*acpv1.SessionUpdatePlanUpdate).Plan.Value
				if reflect.TypeOf(c) != reflect.TypeOf(tc.v1) {
					t.Errorf("v1 content is %T, want %T", c, tc.v1)
				}
			}
			if !reflect.DeepEqual(out1, in1) {
				t.Errorf("v2 -> v1 = %#v, want %#v", out1.Value, in1.Value)
			}
			sameJSON(t, mustMarshal(t, out1), tc.json)

			// Round trips from each side.
			back1, err := convert.SessionUpdateToV1(out2)
			if err != nil || !reflect.DeepEqual(back1, in1) {
				t.Errorf("v1 -> v2 -> v1 = %#v, %v; want %#v", back1.Value, err, in1.Value)
			}
			back2, err := convert.SessionUpdateToV2(out1)
			if err != nil || !reflect.DeepEqual(back2, in2) {
				t.Errorf("v2 -> v1 -> v2 = %#v, %v; want %#v", back2.Value, err, in2.Value)
			}

			// The results share no memory with the inputs.
			scribble(reflect.ValueOf(out2))
			if !reflect.DeepEqual(in1, decodeV1(t, tc.json)) {
				t.Error("changing the v2 result changed the v1 input")
			}
			scribble(reflect.ValueOf(out1))
			if !reflect.DeepEqual(in2, decodeV2(t, tc.json)) {
				t.Error("changing the v1 result changed the v2 input")
			}
		})
	}
}

func TestPlanOpsUnknownContentKeepsBytes(t *testing.T) {
	in1 := decodeV1(t, `{"sessionUpdate":"plan_update","plan":`+customContent+`}`)
	out2, err := convert.SessionUpdateToV2(in1)
	if err != nil {
		t.Fatal(err)
	}
	c2, ok := out2.Value.(*acpv2.SessionUpdatePlanUpdate).Plan.Value.(*acpv2.PlanUpdateContentOther)
	if !ok {
		t.Fatalf("v2 content is %T", out2.Value.(*acpv2.SessionUpdatePlanUpdate).Plan.Value)
	}
	if string(c2.Raw) != customContent {
		t.Errorf("v2 Raw = %s, want %s", c2.Raw, customContent)
	}
	if c2.Tag != "_diagram" || c2.PlanID != "p4" {
		t.Errorf("v2 Tag, PlanID = %q, %q, want _diagram, p4", c2.Tag, c2.PlanID)
	}
	out1, err := convert.SessionUpdateToV1(out2)
	if err != nil {
		t.Fatal(err)
	}
	c1, ok := out1.Value.(*acpv1.SessionUpdatePlanUpdate).Plan.Value.(*acpv1.PlanUpdateContentOther)
	if !ok {
		t.Fatalf("v1 content is %T", out1.Value.(*acpv1.SessionUpdatePlanUpdate).Plan.Value)
	}
	if string(c1.Raw) != customContent || c1.Tag != "_diagram" {
		t.Errorf("v1 Tag, Raw = %q, %s, want _diagram, %s", c1.Tag, c1.Raw, customContent)
	}

	// The results own their bytes.
	c2.Raw[2] = 'X'
	if string(in1.Value.(*acpv1.SessionUpdatePlanUpdate).Plan.Value.(*acpv1.PlanUpdateContentOther).Raw) != customContent {
		t.Error("changing the v2 Raw changed the v1 input")
	}
	if string(c1.Raw) != customContent {
		t.Error("changing the v2 Raw changed the v1 result")
	}
}

func TestPlanOpsUnknownContentWithoutRaw(t *testing.T) {
	in2 := acpv2.SessionUpdate{Value: &acpv2.SessionUpdatePlanUpdate{PlanUpdate: acpv2.PlanUpdate{
		Plan: acpv2.PlanUpdateContent{Value: &acpv2.PlanUpdateContentOther{Tag: "_x", PlanID: "p9"}},
	}}}
	out1, err := convert.SessionUpdateToV1(in2)
	if err != nil {
		t.Fatal(err)
	}
	c1 := out1.Value.(*acpv1.SessionUpdatePlanUpdate).Plan.Value.(*acpv1.PlanUpdateContentOther)
	if c1.Tag != "_x" {
		t.Errorf("Tag = %q, want _x", c1.Tag)
	}
	sameJSON(t, c1.Raw, `{"type":"_x","planId":"p9"}`)
	back, err := convert.SessionUpdateToV2(out1)
	if err != nil {
		t.Fatal(err)
	}
	if c2 := back.Value.(*acpv2.SessionUpdatePlanUpdate).Plan.Value.(*acpv2.PlanUpdateContentOther); c2.PlanID != "p9" {
		t.Errorf("PlanID after v2 -> v1 -> v2 = %q, want p9", c2.PlanID)
	}
}

func TestPlanOpsUnknownContentWithoutPlanID(t *testing.T) {
	for _, raw := range []json.RawMessage{nil, json.RawMessage(`{"type":"_x"}`), json.RawMessage(`{"type":"_x","planId":7}`)} {
		t.Run(string(raw), func(t *testing.T) {
			in := acpv1.SessionUpdate{Value: &acpv1.SessionUpdatePlanUpdate{PlanUpdate: acpv1.PlanUpdate{
				Plan: acpv1.PlanUpdateContent{Value: &acpv1.PlanUpdateContentOther{Tag: "_x", Raw: raw}},
			}}}
			_, err := convert.SessionUpdateToV2(in)
			notRepresentable(t, err, `plan content "_x" without a string "planId"`, 2)
		})
	}
}

func TestPlanOpsMainItemsBecomePlan(t *testing.T) {
	in := decodeV1(t, `{"sessionUpdate":"plan_update","plan":{"type":"items","planId":"main","entries":[{"content":"a","priority":"low","status":"pending"}]},"_meta":{"u":1}}`)
	out2, err := convert.SessionUpdateToV2(in)
	if err != nil {
		t.Fatal(err)
	}
	out1, err := convert.SessionUpdateToV1(out2)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := out1.Value.(*acpv1.SessionUpdatePlan); !ok {
		t.Fatalf("v1 value is %T, want *acpv1.SessionUpdatePlan", out1.Value)
	}
	sameJSON(t, mustMarshal(t, out1), `{"sessionUpdate":"plan","entries":[{"content":"a","priority":"low","status":"pending"}],"_meta":{"u":1}}`)
}

func TestPlanOpsPlanToV1StaysStable(t *testing.T) {
	// PlanToV1 is the conversion for peers without plan operations, in
	// every build.
	in := decodeV2(t, `{"sessionUpdate":"plan_update","plan":{"type":"items","planId":"p1","entries":[]}}`)
	p, err := convert.PlanToV1(in.Value.(*acpv2.SessionUpdatePlanUpdate).PlanUpdate)
	if err != nil {
		t.Fatal(err)
	}
	sameJSON(t, mustMarshal(t, acpv1.SessionUpdatePlan{Plan: p}), `{"sessionUpdate":"plan","entries":[]}`)
}

func TestPlanOpsInvalidInput(t *testing.T) {
	t.Run("v1 nil plan_update", func(t *testing.T) {
		_, err := convert.SessionUpdateToV2(acpv1.SessionUpdate{Value: (*acpv1.SessionUpdatePlanUpdate)(nil)})
		invalid(t, err)
	})
	t.Run("v1 nil plan_removed", func(t *testing.T) {
		_, err := convert.SessionUpdateToV2(acpv1.SessionUpdate{Value: (*acpv1.SessionUpdatePlanRemoved)(nil)})
		invalid(t, err)
	})
	t.Run("v2 nil plan_removed", func(t *testing.T) {
		_, err := convert.SessionUpdateToV1(acpv2.SessionUpdate{Value: (*acpv2.SessionUpdatePlanRemoved)(nil)})
		invalid(t, err)
	})
	t.Run("v1 plan_update without content", func(t *testing.T) {
		_, err := convert.SessionUpdateToV2(acpv1.SessionUpdate{Value: &acpv1.SessionUpdatePlanUpdate{}})
		invalid(t, err)
	})
	for _, c := range []acpv1.PlanUpdateContentVariant{
		(*acpv1.PlanUpdateContentItems)(nil), (*acpv1.PlanUpdateContentFile)(nil),
		(*acpv1.PlanUpdateContentMarkdown)(nil), (*acpv1.PlanUpdateContentOther)(nil),
	} {
		_, err := convert.SessionUpdateToV2(acpv1.SessionUpdate{Value: &acpv1.SessionUpdatePlanUpdate{PlanUpdate: acpv1.PlanUpdate{Plan: acpv1.PlanUpdateContent{Value: c}}}})
		t.Run("v1 content "+reflect.TypeOf(c).String(), func(t *testing.T) { invalid(t, err) })
	}
	for _, c := range []acpv2.PlanUpdateContentVariant{(*acpv2.PlanUpdateContentFile)(nil), (*acpv2.PlanUpdateContentMarkdown)(nil)} {
		_, err := convert.SessionUpdateToV1(acpv2.SessionUpdate{Value: &acpv2.SessionUpdatePlanUpdate{PlanUpdate: acpv2.PlanUpdate{Plan: acpv2.PlanUpdateContent{Value: c}}}})
		t.Run("v2 content "+reflect.TypeOf(c).String(), func(t *testing.T) { invalid(t, err) })
	}
}
