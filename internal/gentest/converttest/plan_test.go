package converttest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/acpgen/acpgen/generated/acpv1"
	"github.com/acpgen/acpgen/generated/acpv2"
	"github.com/acpgen/acpgen/generated/convert"
)

// canonical re-encodes JSON with sorted keys and exact numbers, so that
// documents compare by content.
func canonical(t *testing.T, data []byte) string {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("invalid JSON %s: %v", data, err)
	}
	out, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// sameJSON fails unless got and want are the same JSON document.
func sameJSON(t *testing.T, got []byte, want string) {
	t.Helper()
	if g, w := canonical(t, got), canonical(t, []byte(want)); g != w {
		t.Errorf("JSON differs\n got: %s\nwant: %s", g, w)
	}
}

func mustMarshal(t *testing.T, v any) []byte {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("marshal %T: %v", v, err)
	}
	return data
}

func decodeV1(t *testing.T, data string) acpv1.SessionUpdate {
	t.Helper()
	var u acpv1.SessionUpdate
	if err := json.Unmarshal([]byte(data), &u); err != nil {
		t.Fatalf("decode v1 %s: %v", data, err)
	}
	return u
}

func decodeV2(t *testing.T, data string) acpv2.SessionUpdate {
	t.Helper()
	var u acpv2.SessionUpdate
	if err := json.Unmarshal([]byte(data), &u); err != nil {
		t.Fatalf("decode v2 %s: %v", data, err)
	}
	return u
}

// notRepresentable fails unless err is (or wraps) a *NotRepresentableError
// with the given What and Version.
func notRepresentable(t *testing.T, err error, what string, version int) {
	t.Helper()
	var nr *convert.NotRepresentableError
	if !errors.As(err, &nr) {
		t.Fatalf("error = %v (%T), want *NotRepresentableError", err, err)
	}
	if nr.What != what || nr.Version != version {
		t.Errorf("NotRepresentableError{What: %q, Version: %d}, want {%q, %d}", nr.What, nr.Version, what, version)
	}
}

const (
	v1PlanJSON = `{"sessionUpdate":"plan","entries":[
		{"content":"Write tests","priority":"high","status":"in_progress","_meta":{"n":9007199254740993}},
		{"content":"Design","priority":"medium","status":"completed"},
		{"content":"Ship","priority":"low","status":"pending"}
	],"_meta":{"trace":"t1"}}`
	v2PlanJSON = `{"sessionUpdate":"plan_update","plan":{"type":"items","planId":"main","entries":[
		{"content":"Write tests","priority":"high","status":"in_progress","_meta":{"n":9007199254740993}},
		{"content":"Design","priority":"medium","status":"completed"},
		{"content":"Ship","priority":"low","status":"pending"}
	]},"_meta":{"trace":"t1"}}`
)

func TestMainPlanID(t *testing.T) {
	if convert.MainPlanID != "main" {
		t.Errorf("MainPlanID = %q, want main", convert.MainPlanID)
	}
}

func TestPlanRoundTripJSON(t *testing.T) {
	tests := []struct {
		name   string
		v1, v2 string
	}{
		{"entries and meta", v1PlanJSON, v2PlanJSON},
		{
			"no entries",
			`{"sessionUpdate":"plan","entries":[]}`,
			`{"sessionUpdate":"plan_update","plan":{"type":"items","planId":"main","entries":[]}}`,
		},
		{
			"meta only on an entry",
			`{"sessionUpdate":"plan","entries":[{"content":"x","priority":"low","status":"completed","_meta":{"a":[1,2]}}]}`,
			`{"sessionUpdate":"plan_update","plan":{"type":"items","planId":"main","entries":[{"content":"x","priority":"low","status":"completed","_meta":{"a":[1,2]}}]}}`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			// v1 -> v2 -> v1
			in1 := decodeV1(t, tc.v1)
			out2, err := convert.SessionUpdateToV2(in1)
			if err != nil {
				t.Fatalf("SessionUpdateToV2: %v", err)
			}
			if _, ok := out2.Value.(*acpv2.SessionUpdatePlanUpdate); !ok {
				t.Fatalf("v2 value is %T, want *acpv2.SessionUpdatePlanUpdate", out2.Value)
			}
			sameJSON(t, mustMarshal(t, out2), tc.v2)
			back1, err := convert.SessionUpdateToV1(out2)
			if err != nil {
				t.Fatalf("SessionUpdateToV1: %v", err)
			}
			if !reflect.DeepEqual(back1, in1) {
				t.Errorf("v1 -> v2 -> v1 = %#v, want %#v", back1.Value, in1.Value)
			}
			sameJSON(t, mustMarshal(t, back1), tc.v1)

			// v2 -> v1 -> v2, starting from the expected v2 JSON
			in2 := decodeV2(t, tc.v2)
			out1, err := convert.SessionUpdateToV1(in2)
			if err != nil {
				t.Fatalf("SessionUpdateToV1: %v", err)
			}
			if _, ok := out1.Value.(*acpv1.SessionUpdatePlan); !ok {
				t.Fatalf("v1 value is %T, want *acpv1.SessionUpdatePlan", out1.Value)
			}
			sameJSON(t, mustMarshal(t, out1), tc.v1)
			back2, err := convert.SessionUpdateToV2(out1)
			if err != nil {
				t.Fatalf("SessionUpdateToV2: %v", err)
			}
			if !reflect.DeepEqual(back2, in2) {
				t.Errorf("v2 -> v1 -> v2 = %#v, want %#v", back2.Value, in2.Value)
			}
			sameJSON(t, mustMarshal(t, back2), tc.v2)
		})
	}
}

func TestPlanNilEntriesStayNil(t *testing.T) {
	p := convert.PlanToV2(acpv1.Plan{})
	items, ok := p.Plan.Value.(*acpv2.PlanUpdateContentItems)
	if !ok {
		t.Fatalf("content is %T, want *acpv2.PlanUpdateContentItems", p.Plan.Value)
	}
	if items.Entries != nil {
		t.Errorf("Entries = %#v, want nil", items.Entries)
	}
	v1, err := convert.PlanToV1(p)
	if err != nil {
		t.Fatal(err)
	}
	if v1.Entries != nil {
		t.Errorf("v1 Entries = %#v, want nil", v1.Entries)
	}

	p.Plan.Value = &acpv2.PlanUpdateContentItems{PlanItems: acpv2.PlanItems{PlanID: convert.MainPlanID, Entries: []acpv2.PlanEntry{}}}
	if v1, err = convert.PlanToV1(p); err != nil {
		t.Fatal(err)
	}
	if v1.Entries == nil || len(v1.Entries) != 0 {
		t.Errorf("v1 Entries = %#v, want empty and not nil", v1.Entries)
	}
}

func TestPlanToV1DropsPlanIDAndContentMeta(t *testing.T) {
	var p acpv2.PlanUpdate
	in := `{"plan":{"type":"items","planId":"p1","entries":[{"content":"a","priority":"high","status":"pending"}],"_meta":{"content":1}},"_meta":{"update":2}}`
	if err := json.Unmarshal([]byte(in), &p); err != nil {
		t.Fatal(err)
	}
	v1, err := convert.PlanToV1(p)
	if err != nil {
		t.Fatalf("PlanToV1: %v", err)
	}
	sameJSON(t, mustMarshal(t, v1), `{"entries":[{"content":"a","priority":"high","status":"pending"}],"_meta":{"update":2}}`)
}

func TestPlanToV1NotRepresentable(t *testing.T) {
	for _, tc := range []struct{ content, tag string }{
		{`{"type":"markdown","planId":"p","content":"# Plan"}`, "markdown"},
		{`{"type":"file","planId":"p","uri":"file:///PLAN.md"}`, "file"},
		{`{"type":"_diagram","planId":"p","nodes":[]}`, "_diagram"},
		{`{"type":"future_kind","planId":"main"}`, "future_kind"},
	} {
		t.Run(tc.tag, func(t *testing.T) {
			var p acpv2.PlanUpdate
			if err := json.Unmarshal([]byte(`{"plan":`+tc.content+`}`), &p); err != nil {
				t.Fatal(err)
			}
			_, err := convert.PlanToV1(p)
			notRepresentable(t, err, `plan content "`+tc.tag+`"`, 1)
			// errors.As sees through wrapping.
			notRepresentable(t, fmt.Errorf("forwarding: %w", err), `plan content "`+tc.tag+`"`, 1)
			if want := `convert: plan content "` + tc.tag + `" is not representable in ACP v1`; err.Error() != want {
				t.Errorf("Error() = %q, want %q", err.Error(), want)
			}
		})
	}
}

func TestEntryEnums(t *testing.T) {
	priorities := []acpv1.PlanEntryPriority{acpv1.PlanEntryPriorityHigh, acpv1.PlanEntryPriorityMedium, acpv1.PlanEntryPriorityLow}
	statuses := []acpv1.PlanEntryStatus{acpv1.PlanEntryStatusPending, acpv1.PlanEntryStatusInProgress, acpv1.PlanEntryStatusCompleted}
	for _, p := range priorities {
		for _, s := range statuses {
			in := acpv1.PlanEntry{Content: "task", Priority: p, Status: s, Meta: json.RawMessage(`{"k":"v"}`)}
			v2 := convert.EntryToV2(in)
			if string(v2.Priority) != string(p) || string(v2.Status) != string(s) {
				t.Errorf("EntryToV2(%s, %s) = %s, %s", p, s, v2.Priority, v2.Status)
			}
			if !v2.Priority.IsKnown() || !v2.Status.IsKnown() {
				t.Errorf("EntryToV2(%s, %s): v2 does not know %s, %s", p, s, v2.Priority, v2.Status)
			}
			back, err := convert.EntryToV1(v2)
			if err != nil {
				t.Errorf("EntryToV1(%s, %s): %v", p, s, err)
				continue
			}
			if !reflect.DeepEqual(back, in) {
				t.Errorf("EntryToV1(EntryToV2(%#v)) = %#v", in, back)
			}
		}
	}
}

func TestEntryToV1NotRepresentable(t *testing.T) {
	for _, tc := range []struct {
		priority acpv2.PlanEntryPriority
		status   acpv2.PlanEntryStatus
		what     string
	}{
		{acpv2.PlanEntryPriorityHigh, acpv2.PlanEntryStatusCancelled, `plan entry status "cancelled"`},
		{acpv2.PlanEntryPriorityLow, "_blocked", `plan entry status "_blocked"`},
		{acpv2.PlanEntryPriorityLow, "paused", `plan entry status "paused"`},
		{acpv2.PlanEntryPriorityMedium, "", `plan entry status ""`},
		{"_urgent", acpv2.PlanEntryStatusPending, `plan entry priority "_urgent"`},
		{"critical", acpv2.PlanEntryStatusCancelled, `plan entry priority "critical"`},
	} {
		t.Run(tc.what, func(t *testing.T) {
			_, err := convert.EntryToV1(acpv2.PlanEntry{Content: "x", Priority: tc.priority, Status: tc.status})
			notRepresentable(t, err, tc.what, 1)
		})
	}
}

func TestCancelledEntryInSessionUpdate(t *testing.T) {
	// Both IDs: "main" goes to the stable plan in every build, "p1" to
	// plan_update with plan operations; neither can carry "cancelled".
	for _, id := range []string{"main", "p1"} {
		t.Run(id, func(t *testing.T) {
			in := decodeV2(t, `{"sessionUpdate":"plan_update","plan":{"type":"items","planId":"`+id+`","entries":[
				{"content":"a","priority":"high","status":"completed"},
				{"content":"b","priority":"low","status":"cancelled"}]}}`)
			out, err := convert.SessionUpdateToV1(in)
			notRepresentable(t, err, `plan entry status "cancelled" at entries[1]`, 1)
			if out.Value != nil {
				t.Errorf("result = %#v, want zero on error", out.Value)
			}
		})
	}
}

// TestSessionUpdateToV1ByBuild covers the v2 updates whose conversion
// depends on the plan operations build tag; plan_ops_test.go checks the
// converted values of the tagged build in detail.
func TestSessionUpdateToV1ByBuild(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		offErr string // What without plan operations, or "" for success
		off    string // v1 JSON without plan operations, when offErr is ""
		onTag  string // v1 tag with plan operations
	}{
		{
			name:   "plan_removed",
			in:     `{"sessionUpdate":"plan_removed","planId":"p1"}`,
			offErr: `session update "plan_removed"`,
			onTag:  "plan_removed",
		},
		{
			name:   "markdown",
			in:     `{"sessionUpdate":"plan_update","plan":{"type":"markdown","planId":"main","content":"# Plan"}}`,
			offErr: `plan content "markdown"`,
			onTag:  "plan_update",
		},
		{
			name:   "file",
			in:     `{"sessionUpdate":"plan_update","plan":{"type":"file","planId":"p2","uri":"file:///PLAN.md"}}`,
			offErr: `plan content "file"`,
			onTag:  "plan_update",
		},
		{
			name:   "custom content",
			in:     `{"sessionUpdate":"plan_update","plan":{"type":"_diagram","planId":"p3","nodes":[1]}}`,
			offErr: `plan content "_diagram"`,
			onTag:  "plan_update",
		},
		{
			name:  "items with another id",
			in:    `{"sessionUpdate":"plan_update","plan":{"type":"items","planId":"p4","entries":[{"content":"a","priority":"high","status":"pending"}]},"_meta":{"u":1}}`,
			off:   `{"sessionUpdate":"plan","entries":[{"content":"a","priority":"high","status":"pending"}],"_meta":{"u":1}}`,
			onTag: "plan_update",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, err := convert.SessionUpdateToV1(decodeV2(t, tc.in))
			switch {
			case planOpsBuild:
				if err != nil {
					t.Fatalf("SessionUpdateToV1: %v", err)
				}
				if out.Tag() != tc.onTag {
					t.Errorf("tag = %q, want %q", out.Tag(), tc.onTag)
				}
			case tc.offErr != "":
				notRepresentable(t, err, tc.offErr, 1)
			default:
				if err != nil {
					t.Fatalf("SessionUpdateToV1: %v", err)
				}
				sameJSON(t, mustMarshal(t, out), tc.off)
			}
		})
	}
}

// TestSessionUpdateToV2ByBuild covers the v1 updates that only the plan
// operations build knows.
func TestSessionUpdateToV2ByBuild(t *testing.T) {
	for _, tc := range []struct{ tag, in string }{
		{"plan_update", `{"sessionUpdate":"plan_update","plan":{"type":"items","planId":"p1","entries":[]}}`},
		{"plan_removed", `{"sessionUpdate":"plan_removed","planId":"p1"}`},
	} {
		t.Run(tc.tag, func(t *testing.T) {
			out, err := convert.SessionUpdateToV2(decodeV1(t, tc.in))
			if planOpsBuild {
				if err != nil {
					t.Fatalf("SessionUpdateToV2: %v", err)
				}
				if out.Tag() != tc.tag {
					t.Errorf("tag = %q, want %q", out.Tag(), tc.tag)
				}
				return
			}
			notRepresentable(t, err, `session update "`+tc.tag+`"`, 2)
		})
	}
}

func TestUnknownSessionUpdate(t *testing.T) {
	const in = `{"sessionUpdate":"_custom_update","x":1}`
	_, err := convert.SessionUpdateToV2(decodeV1(t, in))
	notRepresentable(t, err, `session update "_custom_update"`, 2)
	_, err = convert.SessionUpdateToV1(decodeV2(t, in))
	notRepresentable(t, err, `session update "_custom_update"`, 1)
	if want := `convert: session update "_custom_update" is not representable in ACP v1`; err.Error() != want {
		t.Errorf("Error() = %q, want %q", err.Error(), want)
	}
}

func TestUnsupportedSessionUpdate(t *testing.T) {
	check := func(t *testing.T, err error) {
		t.Helper()
		var ue *convert.UnsupportedError
		if !errors.As(err, &ue) {
			t.Fatalf("error = %v (%T), want *UnsupportedError", err, err)
		}
		if ue.Tag != "agent_message_chunk" {
			t.Errorf("Tag = %q, want agent_message_chunk", ue.Tag)
		}
		var nr *convert.NotRepresentableError
		if errors.As(err, &nr) {
			t.Errorf("error is also a *NotRepresentableError: %v", err)
		}
		if want := `convert: session update "agent_message_chunk" is not a plan update`; err.Error() != want {
			t.Errorf("Error() = %q, want %q", err.Error(), want)
		}
	}
	t.Run("v1", func(t *testing.T) {
		_, err := convert.SessionUpdateToV2(acpv1.SessionUpdate{Value: &acpv1.SessionUpdateAgentMessageChunk{}})
		check(t, err)
	})
	t.Run("v2", func(t *testing.T) {
		_, err := convert.SessionUpdateToV1(acpv2.SessionUpdate{Value: &acpv2.SessionUpdateAgentMessageChunk{}})
		check(t, err)
	})
}

// invalid fails unless err is an error but neither of the typed ones.
func invalid(t *testing.T, err error) {
	t.Helper()
	if err == nil {
		t.Fatal("no error")
	}
	var nr *convert.NotRepresentableError
	var ue *convert.UnsupportedError
	if errors.As(err, &nr) || errors.As(err, &ue) {
		t.Errorf("error = %v (%T), want an invalid-input error", err, err)
	}
}

func TestInvalidInput(t *testing.T) {
	t.Run("v1 nil value", func(t *testing.T) {
		_, err := convert.SessionUpdateToV2(acpv1.SessionUpdate{})
		invalid(t, err)
	})
	t.Run("v1 nil plan", func(t *testing.T) {
		_, err := convert.SessionUpdateToV2(acpv1.SessionUpdate{Value: (*acpv1.SessionUpdatePlan)(nil)})
		invalid(t, err)
	})
	t.Run("v1 nil other", func(t *testing.T) {
		_, err := convert.SessionUpdateToV2(acpv1.SessionUpdate{Value: (*acpv1.SessionUpdateOther)(nil)})
		invalid(t, err)
	})
	t.Run("v2 nil value", func(t *testing.T) {
		_, err := convert.SessionUpdateToV1(acpv2.SessionUpdate{})
		invalid(t, err)
	})
	t.Run("v2 nil plan update", func(t *testing.T) {
		_, err := convert.SessionUpdateToV1(acpv2.SessionUpdate{Value: (*acpv2.SessionUpdatePlanUpdate)(nil)})
		invalid(t, err)
	})
	t.Run("v2 nil other", func(t *testing.T) {
		_, err := convert.SessionUpdateToV1(acpv2.SessionUpdate{Value: (*acpv2.SessionUpdateOther)(nil)})
		invalid(t, err)
	})
	t.Run("v2 plan update without content", func(t *testing.T) {
		_, err := convert.SessionUpdateToV1(acpv2.SessionUpdate{Value: &acpv2.SessionUpdatePlanUpdate{}})
		invalid(t, err)
	})
	for _, c := range []acpv2.PlanUpdateContentVariant{(*acpv2.PlanUpdateContentItems)(nil), (*acpv2.PlanUpdateContentOther)(nil)} {
		t.Run(fmt.Sprintf("v2 content %T", c), func(t *testing.T) {
			u := acpv2.SessionUpdate{Value: &acpv2.SessionUpdatePlanUpdate{PlanUpdate: acpv2.PlanUpdate{Plan: acpv2.PlanUpdateContent{Value: c}}}}
			_, err := convert.SessionUpdateToV1(u)
			invalid(t, err)
			_, err = convert.PlanToV1(acpv2.PlanUpdate{Plan: acpv2.PlanUpdateContent{Value: c}})
			invalid(t, err)
		})
	}
}

// scribble overwrites a byte in every raw JSON value reachable from v, to
// show whether a result shares memory with the input it came from.
func scribble(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			scribble(v.Elem())
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				scribble(v.Field(i))
			}
		}
	case reflect.Slice:
		if v.Type() == reflect.TypeOf(json.RawMessage(nil)) {
			if b := v.Bytes(); len(b) > 2 {
				b[2] = 'X'
			}
			return
		}
		for i := 0; i < v.Len(); i++ {
			scribble(v.Index(i))
		}
	}
}

func TestScribble(t *testing.T) {
	u := decodeV1(t, v1PlanJSON)
	scribble(reflect.ValueOf(u))
	p := u.Value.(*acpv1.SessionUpdatePlan)
	if string(p.Meta) != `{"Xrace":"t1"}` || string(p.Entries[0].Meta) != `{"X":9007199254740993}` {
		t.Errorf("scribble left %s and %s", p.Meta, p.Entries[0].Meta)
	}
}

func TestNoAliasing(t *testing.T) {
	in1 := decodeV1(t, v1PlanJSON)
	out2, err := convert.SessionUpdateToV2(in1)
	if err != nil {
		t.Fatal(err)
	}
	scribble(reflect.ValueOf(out2))
	if !reflect.DeepEqual(in1, decodeV1(t, v1PlanJSON)) {
		t.Error("changing the v2 result changed the v1 input")
	}

	in2 := decodeV2(t, v2PlanJSON)
	out1, err := convert.SessionUpdateToV1(in2)
	if err != nil {
		t.Fatal(err)
	}
	scribble(reflect.ValueOf(out1))
	if !reflect.DeepEqual(in2, decodeV2(t, v2PlanJSON)) {
		t.Error("changing the v1 result changed the v2 input")
	}
}
