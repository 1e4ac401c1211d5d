package load

import (
	"strings"
	"testing"
)

// nested is a definition with inline objects nested depth deep under "a".
func nested(depth int) string {
	return `{"$defs":{"Root":` +
		strings.Repeat(`{"type":"object","description":"level","properties":{"s":{"type":"string"},"a":`, depth) +
		`{"type":"string"}` + strings.Repeat(`}}`, depth) + `}}`
}

// TestHoistKeepsShape: a document nested deeper than maxNesting compiles to
// the same schemas, at the same locations, as one that is not moved around.
func TestHoistKeepsShape(t *testing.T) {
	const depth = 3*maxNesting + 2
	f, err := Parse("deep.json", []byte(nested(depth)))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Defs) != 1 || f.Defs[0].Name != "Root" {
		t.Fatalf("definitions %v, want Root alone", f.Defs)
	}
	s := f.Defs[0].Schema
	ptr := "/$defs/Root"
	for level := 0; level < depth; level++ {
		if s.Ref != nil {
			t.Fatalf("level %d is a reference to %s", level, s.Ref.Location)
		}
		if got := Pointer(s); got != ptr {
			t.Fatalf("level %d at %q, want %q", level, got, ptr)
		}
		if s.Description != "level" || strings.Join(f.Properties(s), ",") != "s,a" {
			t.Fatalf("level %d: description %q, properties %v", level, s.Description, f.Properties(s))
		}
		s = s.Properties["a"]
		ptr += "/properties/a"
	}
	if len(s.Types) != 1 || s.Types[0] != "string" || Pointer(s) != ptr {
		t.Errorf("innermost schema %v at %s", s.Types, Pointer(s))
	}
}

// TestHoistLeavesRefsAlone: a document that refers inside a definition is
// compiled as it is, deep or not.
func TestHoistLeavesRefsAlone(t *testing.T) {
	doc := strings.Replace(nested(maxNesting+4), `{"type":"string"}}}`, `{"$ref":"#/$defs/Root/properties/s"}}}`, 1)
	f, err := Parse("deep.json", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Defs) != 1 {
		t.Errorf("definitions %v, want Root alone", f.Defs)
	}
}
