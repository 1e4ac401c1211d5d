package acpv1test

import (
	"encoding/json"
	"testing"

	"github.com/acpgen/acpgen/generated/acpv1"
)

// Decoding where the schema and the TypeScript SDK agree and acpgen once
// did not (the differential test, TestZodDiff, finds such cases at large;
// these pin one example of each).
func TestFidelity(t *testing.T) {
	t.Run("a branch without tag takes a tag of another kind", func(t *testing.T) {
		var m acpv1.AuthMethod
		if err := json.Unmarshal([]byte(`{"type":7,"id":"a","name":"A"}`), &m); err != nil {
			t.Fatal(err)
		}
		if a, ok := m.Value.(*acpv1.AuthMethodAgentVariant); !ok || a.ID != "a" {
			t.Errorf("value = %#v", m.Value)
		}
	})
	t.Run("a branch without tag takes what the named variant does not fit", func(t *testing.T) {
		var r acpv1.SetSessionConfigOptionRequest
		if err := json.Unmarshal([]byte(`{"sessionId":"s","configId":"c","type":"boolean","value":"true"}`), &r); err != nil {
			t.Fatal(err)
		}
		if v, ok := r.Value.(*acpv1.SetSessionConfigOptionRequestValueID); !ok || v.Value != "true" {
			t.Errorf("value = %#v", r.Value)
		}
		if err := json.Unmarshal([]byte(`{"sessionId":"s","configId":"c","type":"boolean","value":7}`), &r); err == nil {
			t.Error("a value that fits no branch decoded")
		}
	})
	t.Run("null for a map that cannot be null", func(t *testing.T) {
		var s acpv1.ElicitationSchema
		if err := json.Unmarshal([]byte(`{"type":"object","properties":null}`), &s); err == nil {
			t.Error("null properties decoded")
		}
	})
	t.Run("integers written with a fraction or an exponent", func(t *testing.T) {
		for in, want := range map[string]uint64{`{"sessionUpdate":"usage_update","used":1.0,"size":1e2}`: 100} {
			var u acpv1.SessionUpdate
			if err := json.Unmarshal([]byte(in), &u); err != nil {
				t.Fatalf("%s: %v", in, err)
			}
			if v, ok := u.Value.(*acpv1.SessionUpdateUsageUpdate); !ok || v.Used != 1 || v.Size != want {
				t.Errorf("%s: %#v", in, u.Value)
			}
		}
		for _, in := range []string{`1.5`, `1e-1`, `18446744073709551616.0`, `1e400`} {
			var u acpv1.SessionUpdate
			if err := json.Unmarshal([]byte(`{"sessionUpdate":"usage_update","used":`+in+`,"size":1}`), &u); err == nil {
				t.Errorf("used %s decoded", in)
			}
		}
	})
}
