//go:build !unstable_plan_operations && !unstable

package acpv1test

import (
	"encoding/json"
	"testing"

	"github.com/acpgen/acpgen/generated/acpv1"
	"github.com/acpgen/acpgen/internal/jsontest"
)

// planOpsBuild reports whether plan operations are built.
const planOpsBuild = false

// Without the feature, v1 knows neither plan_update nor plan_removed: each
// decodes into the SessionUpdate fallback and re-encodes byte for byte.
func TestPlanOpsOffUpdatesAreFallback(t *testing.T) {
	for _, c := range planOpsUpdateInputs {
		t.Run(c.name, func(t *testing.T) {
			n := planOpsDecode(t, c.input)
			o, ok := n.Update.Value.(*acpv1.SessionUpdateOther)
			if !ok {
				t.Fatalf("update is %T, want *SessionUpdateOther", n.Update.Value)
			}
			if o.Tag != c.tag || o.IsCustom() {
				t.Errorf("Tag = %q, IsCustom() = %v, want %q, false", o.Tag, o.IsCustom(), c.tag)
			}
			jsontest.AssertBytes(t, o.Raw, []byte(c.update))
			jsontest.AssertBytes(t, jsontest.Marshal(t, n), []byte(c.input))
		})
	}
}

// Without the feature ClientCapabilities has no Plan field: a "plan" member
// is one the schema allows without naming it, kept as received and written
// back after the named members.
func TestPlanOpsOffClientCapabilitiesDropsPlan(t *testing.T) {
	var caps acpv1.ClientCapabilities
	if err := json.Unmarshal([]byte(planOpsCapsInput), &caps); err != nil {
		t.Fatalf("decode %s: %v", planOpsCapsInput, err)
	}
	if caps.Terminal == nil || !*caps.Terminal {
		t.Errorf("Terminal = %v, want true", caps.Terminal)
	}
	jsontest.AssertBytes(t, jsontest.Marshal(t, caps), []byte(planOpsCapsInput))
}
