package acpv2

import (
	"testing"

	"github.com/acpgen/acpgen/internal/conformance"
)

// TestCorpus runs the corpus tests of internal/conformance on this package.
func TestCorpus(t *testing.T) {
	conformance.RunAll(t, conformance.Package{
		Version:               "v2",
		NewRequestParams:      NewRequestParams,
		NewNotificationParams: NewNotificationParams,
		NewResult:             NewResult,
		NewError:              func() any { return new(Error) },
	}, unstableBuild, func(data []byte, method string) (any, error) { return DecodeMessage(data, method) })
}
