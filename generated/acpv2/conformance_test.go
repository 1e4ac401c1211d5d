package acpv2

import (
	"testing"

	"github.com/acpgen/acpgen/generated/internal/conformance"
)

var pkg = conformance.Package{
	Version:               "v2",
	File:                  "v2/schema.json",
	NewRequestParams:      NewRequestParams,
	NewNotificationParams: NewNotificationParams,
	NewResult:             NewResult,
	NewError:              func() any { return new(Error) },
}

func TestConformance(t *testing.T) {
	conformance.Run(t, pkg, 50)
}
