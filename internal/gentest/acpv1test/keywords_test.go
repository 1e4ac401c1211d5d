package acpv1test

import (
	"testing"

	"github.com/acpgen/acpgen/generated/acpv1"
	"github.com/acpgen/acpgen/internal/jsontest"
)

// Tests of the validation keywords of the schema that the decoders check,
// and of numbers that a float64 would round.

func TestKeywordsMinLength(t *testing.T) {
	jsontest.RunCases(t, []jsontest.Case[acpv1.Notice]{
		{Name: "empty title", In: `{"title":"","severity":"info"}`, Err: "string of 0 characters (at least 1)", Field: "title"},
		{Name: "one character", In: `{"title":"☃","severity":"info"}`, Want: acpv1.Notice{Title: "☃", Severity: acpv1.NoticeSeverityInfo}, Valid: true},
	})
}

func TestKeywordsFloats(t *testing.T) {
	jsontest.RunCases(t, []jsontest.Case[acpv1.Annotations]{
		{Name: "rounded defaults", In: `{"priority":18446744073709551616}`, Want: acpv1.Annotations{}, Enc: `{}`},
		{Name: "exact", In: `{"priority":0.25}`, Want: acpv1.Annotations{Priority: acpv1.Ptr(0.25)}, Valid: true},
	})
}
