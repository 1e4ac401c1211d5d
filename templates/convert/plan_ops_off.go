//go:build ignore

package convert

import (
	"github.com/acpgen/acpgen/generated/acpv1"
	"github.com/acpgen/acpgen/generated/acpv2"
)

// planOpsSessionUpdateToV2 converts nothing without plan operations: the
// build has no v1 "plan_update" or "plan_removed".
func planOpsSessionUpdateToV2(acpv1.SessionUpdateVariant) (acpv2.SessionUpdate, bool, error) {
	return acpv2.SessionUpdate{}, false, nil
}

// planOpsSessionUpdateToV1 converts nothing without plan operations: the
// build has no v2 "plan_removed".
func planOpsSessionUpdateToV1(acpv2.SessionUpdateVariant) (acpv1.SessionUpdate, bool, error) {
	return acpv1.SessionUpdate{}, false, nil
}

// planOpsPlanUpdateToV1 leaves every v2 "plan_update" to the stable
// conversion to a v1 "plan" without plan operations.
func planOpsPlanUpdateToV1(acpv2.PlanUpdate) (acpv1.SessionUpdate, bool, error) {
	return acpv1.SessionUpdate{}, false, nil
}
