package acpv1

import (
	"testing"

	"github.com/acpgen/acpgen/generated/internal/conformance"
)

var pkg = conformance.Package{
	Version:               "v1",
	File:                  "v1/schema.json",
	NewRequestParams:      NewRequestParams,
	NewNotificationParams: NewNotificationParams,
	NewResult:             NewResult,
	NewError:              func() any { return new(Error) },
}

func TestConformance(t *testing.T) {
	conformance.Run(t, pkg, 50)
}
