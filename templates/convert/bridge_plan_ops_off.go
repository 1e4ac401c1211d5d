//go:build ignore

package convert

import (
	"github.com/acpgen/acpgen/generated/acpv1"
	"github.com/acpgen/acpgen/generated/acpv2"
)

// advertisesPlan reports whether a v1 client advertised the plan
// operations: without them built in, no client can.
func advertisesPlan(*acpv1.ClientCapabilities) bool { return false }

// planRemovedToV1 has nothing to convert without the plan operations: a v2
// plan_removed is then an unknown update, which has no v1 form.
func planRemovedToV1(*Bridge, acpv2.SessionUpdate) (r acpv1.SessionUpdate, ok bool, err error) {
	return r, false, nil
}
