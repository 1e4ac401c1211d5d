//go:build ignore

package convert

import (
	"github.com/acpgen/acpgen/generated/acpv1"
	"github.com/acpgen/acpgen/generated/acpv2"
)

// advertisesPlan reports whether a v1 client advertised the plan
// operations (ClientCapabilities.plan).
func advertisesPlan(c *acpv1.ClientCapabilities) bool { return c != nil && c.Plan != nil }

// planRemovedToV1 converts a v2 plan_removed for a client that advertised
// the plan operations; for any other client it has no v1 form. ok is false
// for other updates.
func planRemovedToV1(b *Bridge, u acpv2.SessionUpdate) (r acpv1.SessionUpdate, ok bool, err error) {
	if _, removed := u.Value.(*acpv2.SessionUpdatePlanRemoved); !removed {
		return r, false, nil
	}
	b.mu.Lock()
	planOps := b.plan
	b.mu.Unlock()
	if !planOps {
		return r, true, &NotRepresentableError{What: `session update "plan_removed" for a client without the plan operations`, Version: 1}
	}
	r, err = SessionUpdateToV1(u)
	return r, true, err
}
