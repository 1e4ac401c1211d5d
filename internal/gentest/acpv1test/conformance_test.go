package acpv1test

import (
	"testing"

	"github.com/acpgen/acpgen/generated/acpv1"
	"github.com/acpgen/acpgen/internal/conformance"
	"github.com/acpgen/acpgen/internal/gentest/buildtag"
)

// TestCorpus runs the corpus tests of internal/conformance on this package.
func TestCorpus(t *testing.T) {
	conformance.RunAll(t, conformance.Package{
		Version:               "v1",
		NewRequestParams:      acpv1.NewRequestParams,
		NewNotificationParams: acpv1.NewNotificationParams,
		NewResult:             acpv1.NewResult,
		NewError:              func() any { return new(acpv1.Error) },
	}, buildtag.Unstable, func(data []byte, method string) (any, error) { return acpv1.DecodeMessage(data, method) })
}
