package acpv2

import (
	"testing"

	"github.com/acpgen/acpgen/generated/internal/conformance"
)

// TestConformance runs the corpus through the package: the stable pages
// against the stable schema, and with the unstable tag the draft pages too,
// against the unstable schema.
func TestConformance(t *testing.T) {
	p := conformance.Package{
		Version:               "v2",
		File:                  "v2/schema.json",
		NewRequestParams:      NewRequestParams,
		NewNotificationParams: NewNotificationParams,
		NewResult:             NewResult,
		NewError:              func() any { return new(Error) },
	}
	min := 50
	if unstableBuild {
		p.File, p.Drafts, min = "v2/schema.unstable.json", true, 100
	}
	conformance.Run(t, p, min)
}
