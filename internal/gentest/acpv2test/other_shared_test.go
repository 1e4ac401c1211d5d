package acpv2test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/acpgen/acpgen/generated/acpv2"
)

// TestOtherSharedRules: the members every variant of IdleStateUpdate shares
// follow their x-deserialize-default-on-error rule on a variant this
// package does not know as on a known one, the ones build tags add
// (usage, with unstable_end_turn_token_usage) included; without those tags
// usage is a member the schema does not name, kept as received.
func TestOtherSharedRules(t *testing.T) {
	want := map[string]string{
		`{"stopReason":"end_turn","_meta":7}`:   `{"stopReason":"end_turn"}`,
		`{"stopReason":"_later","_meta":7}`:     `{"stopReason":"_later"}`,
		`{"stopReason":"_later","usage":"x"}`:   `{"stopReason":"_later","usage":"x"}`,
		`{"stopReason":"end_turn","usage":"x"}`: `{"stopReason":"end_turn"}`,
	}
	if _, usage := reflect.TypeOf(acpv2.IdleStateUpdate{}).FieldByName("Usage"); usage {
		want[`{"stopReason":"_later","usage":"x"}`] = `{"stopReason":"_later"}`
	}
	for in, out := range want {
		var u acpv2.IdleStateUpdate
		if err := json.Unmarshal([]byte(in), &u); err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		got, err := json.Marshal(u)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != out {
			t.Errorf("%s: written back as %s, want %s", in, got, out)
		}
	}
}
