package acpv1

import (
	"testing"
)

// Tests of the validation keywords of the schema that the decoders check,
// and of numbers that a float64 would round.

func TestKeywordsMinLength(t *testing.T) {
	rulesRun(t, []rulesCase[Notice]{
		{name: "empty title", in: `{"title":"","severity":"info"}`, err: "string of 0 characters (at least 1)", field: "title"},
		{name: "one character", in: `{"title":"☃","severity":"info"}`, want: Notice{Title: "☃", Severity: NoticeSeverityInfo}, valid: true},
	})
}

func TestKeywordsFloats(t *testing.T) {
	rulesRun(t, []rulesCase[Annotations]{
		{name: "rounded defaults", in: `{"priority":18446744073709551616}`, want: Annotations{}, enc: `{}`},
		{name: "exact", in: `{"priority":0.25}`, want: Annotations{Priority: rulesPtr(0.25)}, valid: true},
	})
}
