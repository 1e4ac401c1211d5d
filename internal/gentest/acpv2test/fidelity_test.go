package acpv2test

import (
	"encoding/json"
	"testing"

	"github.com/acpgen/acpgen/generated/acpv2"
)

// Decoding where the schema and the TypeScript SDK agree and acpgen once
// did not (the differential test, TestZodDiff, finds such cases at large;
// these pin one example of each).
func TestFidelity(t *testing.T) {
	t.Run("null that clears survives", func(t *testing.T) {
		for _, in := range []string{
			`{"toolCallId":"t","content":null}`,
			`{"toolCallId":"t","locations":null,"rawInput":null,"rawOutput":null}`,
		} {
			var u acpv2.ToolCallUpdate
			if err := json.Unmarshal([]byte(in), &u); err != nil {
				t.Fatal(err)
			}
			out, err := json.Marshal(u)
			if err != nil || string(out) != in {
				t.Errorf("%s written back as %s (%v)", in, out, err)
			}
		}
		var c acpv2.CompactionUpdate
		if err := json.Unmarshal([]byte(`{"compactionId":"c","status":"completed","summary":null}`), &c); err != nil {
			t.Fatal(err)
		}
		if !c.Summary.Present || !c.Summary.Null {
			t.Errorf("summary = %+v", c.Summary)
		}
	})
	t.Run("an unknown variant is checked against what every variant carries", func(t *testing.T) {
		var r acpv2.CreateElicitationRequest
		if err := json.Unmarshal([]byte(`{"mode":"_custom","message":"m"}`), &r); err == nil {
			t.Error("an unknown mode without a scope decoded")
		}
		in := `{"mode":"_custom","message":"m","sessionId":"s","x":[1,2]}`
		if err := json.Unmarshal([]byte(in), &r); err != nil {
			t.Fatal(err)
		}
		o, ok := r.Value.(*acpv2.CreateElicitationRequestOther)
		if !ok {
			t.Fatalf("value = %#v", r.Value)
		}
		if s, ok := o.CreateElicitationRequestOtherFields.Value.(*acpv2.CreateElicitationRequestOtherFieldsSession); !ok || s.SessionID != "s" {
			t.Errorf("scope = %#v", o.CreateElicitationRequestOtherFields.Value)
		}
		if out, err := json.Marshal(r); err != nil || string(out) != in {
			t.Errorf("written back as %s (%v)", out, err)
		}
	})
	t.Run("a malformed tag that defaults on error", func(t *testing.T) {
		var s acpv2.IdleStateUpdate
		if err := json.Unmarshal([]byte(`{"stopReason":7}`), &s); err != nil {
			t.Fatal(err)
		}
		if _, ok := s.Value.(*acpv2.IdleStateUpdateNone); !ok {
			t.Errorf("value = %#v", s.Value)
		}
	})
}
