package acpv1

import (
	"testing"

	"github.com/acpgen/acpgen/internal/gentest/buildtag"
	"github.com/acpgen/acpgen/internal/zoddiff"
)

// TestZodDiff decodes the corpus, its mutants and a synthetic value of every
// definition and variant with this package and with the TypeScript SDK's zod
// schemas, and fails where they disagree and the schema does not side with
// this package (allow-list: internal/zoddiff/allow.go).
func TestZodDiff(t *testing.T) {
	zoddiff.Run(t, zoddiff.Package{Version: "v1", Unstable: buildtag.Unstable, Definitions: definitions})
}
