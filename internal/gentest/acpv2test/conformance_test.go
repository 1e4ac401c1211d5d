package acpv2test

import (
	"testing"

	"github.com/acpgen/acpgen/generated/acpv2"
	"github.com/acpgen/acpgen/internal/conformance"
	"github.com/acpgen/acpgen/internal/gentest/buildtag"
)

// TestCorpus runs the corpus tests of internal/conformance on this package.
func TestCorpus(t *testing.T) {
	conformance.RunAll(t, conformance.Package{
		Version:               "v2",
		NewRequestParams:      acpv2.NewRequestParams,
		NewNotificationParams: acpv2.NewNotificationParams,
		NewResult:             acpv2.NewResult,
		NewError:              func() any { return new(acpv2.Error) },
	}, buildtag.Unstable, func(data []byte, method string) (any, error) { return acpv2.DecodeMessage(data, method) })
}
