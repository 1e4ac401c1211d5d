package acpv2test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/acpgen/acpgen/generated/acpv2"
)

// TestRemovedPlanUpdate: v2 rejects the v1 "plan" session update instead of
// passing it on as an unknown update.
func TestRemovedPlanUpdate(t *testing.T) {
	in := `{"sessionId":"s","update":{"sessionUpdate":"plan","entries":[{"content":"a","priority":"high","status":"pending"}]}}`
	var n acpv2.UpdateSessionNotification
	err := json.Unmarshal([]byte(in), &n)
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) {
		t.Fatalf("decoding a v1 plan update: err = %v, want a *json.UnmarshalTypeError", err)
	}
	for _, want := range []string{"update.sessionUpdate", `"plan"`, "plan_update"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %s", err, want)
		}
	}
	if _, ok := n.Update.Value.(*acpv2.SessionUpdateOther); ok {
		t.Error("the removed update was kept as an unknown update")
	}
}
