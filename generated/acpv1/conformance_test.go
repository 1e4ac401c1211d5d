package acpv1

import (
	"testing"

	"github.com/acpgen/acpgen/internal/conformance"
)

// corpus describes this package to the corpus tests: the stable pages
// against the stable schema, and with the unstable tag the draft pages too,
// against the unstable schema.
func corpus() conformance.Package {
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
	return p
}

// TestConformance decodes each corpus message's params or result into its
// typed value, re-encodes it, and validates the result against the schema.
func TestConformance(t *testing.T) {
	min := 50
	if unstableBuild {
		min = 100
	}
	conformance.Run(t, corpus(), min)
}

// TestMessages runs every corpus message through DecodeMessage and back.
func TestMessages(t *testing.T) {
	conformance.RunMessages(t, corpus(), func(data []byte, method string) (any, error) {
		return DecodeMessage(data, method)
	})
}

// TestMutations drops required keys and retypes lenient members of the
// corpus messages, and checks the decoders follow the schema's rules.
func TestMutations(t *testing.T) {
	conformance.RunMutations(t, corpus(), 20)
}

// TestExtraMembers adds a member the schema does not name to the corpus
// messages' params and results, and expects it written back.
func TestExtraMembers(t *testing.T) {
	conformance.RunExtraMembers(t, corpus(), 50)
}
