package acpv1

import (
	"testing"

	"github.com/acpgen/acpgen/internal/conformance"
)

// TestCorpus runs the corpus tests of internal/conformance on this package.
func TestCorpus(t *testing.T) {
	conformance.RunAll(t, conformance.Package{
		Version:               "v1",
		NewRequestParams:      NewRequestParams,
		NewNotificationParams: NewNotificationParams,
		NewResult:             NewResult,
		NewError:              func() any { return new(Error) },
	}, unstableBuild, func(data []byte, method string) (any, error) { return DecodeMessage(data, method) })
}
