package acpv1

import (
	"testing"

	"github.com/acpgen/acpgen/generated/internal/conformance"
)

// TestMutations drops required keys and retypes lenient members of the
// corpus messages, and checks the decoders follow the schema's rules.
func TestMutations(t *testing.T) {
	p := conformance.Package{
		Version:               "v1",
		File:                  "v1/schema.json",
		NewRequestParams:      NewRequestParams,
		NewNotificationParams: NewNotificationParams,
		NewResult:             NewResult,
		NewError:              func() any { return new(Error) },
	}
	if unstableBuild {
		p.File, p.Drafts = "v1/schema.unstable.json", true
	}
	conformance.RunMutations(t, p, 20)
}
