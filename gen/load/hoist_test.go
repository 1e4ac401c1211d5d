package load

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"
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
	depth := 3*maxNesting + 2
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

// TestHoistEverything compiles the pinned schema with every inline schema
// hoisted and put back, and expects the same schemas as without.
func TestHoistEverything(t *testing.T) {
	for _, file := range []string{"v1/schema.unstable.json", "v2/schema.unstable.json"} {
		data, err := os.ReadFile("../../schema/" + file)
		if err != nil {
			t.Fatal(err)
		}
		plain, err := Parse(file, data)
		if err != nil {
			t.Fatal(err)
		}
		saved := maxNesting
		maxNesting = 0
		moved, err := Parse(file, data)
		maxNesting = saved
		if err != nil {
			t.Fatal(err)
		}
		if len(plain.Defs) != len(moved.Defs) {
			t.Fatalf("%s: %d definitions, %d after hoisting", file, len(plain.Defs), len(moved.Defs))
		}
		for i, d := range plain.Defs {
			if err := sameSchema(d.Schema, moved.Defs[i].Schema, plain, moved); err != nil {
				t.Errorf("%s: %v", file, err)
			}
		}
	}
}

// sameSchema compares what the generator reads of two compiled schemas.
func sameSchema(a, b *jsonschema.Schema, fa, fb *File) error {
	if a == nil || b == nil {
		if a != b {
			return fmt.Errorf("%v against %v", a, b)
		}
		return nil
	}
	if a.Location != b.Location || a.Description != b.Description || a.Title != b.Title ||
		fmt.Sprint(a.Types, a.Constant, a.Enum, a.Required) != fmt.Sprint(b.Types, b.Constant, b.Enum, b.Required) ||
		fmt.Sprint(Annotate(a)) != fmt.Sprint(Annotate(b)) ||
		strings.Join(fa.Properties(a), ",") != strings.Join(fb.Properties(b), ",") {
		return fmt.Errorf("%s differs from %s", a.Location, b.Location)
	}
	if (a.Ref == nil) != (b.Ref == nil) || (a.Ref != nil && a.Ref.Location != b.Ref.Location) {
		return fmt.Errorf("%s: the references differ", a.Location)
	}
	pairs := [][2]*jsonschema.Schema{{a.Not, b.Not}}
	ap, _ := a.AdditionalProperties.(*jsonschema.Schema)
	bp, _ := b.AdditionalProperties.(*jsonschema.Schema)
	ai, _ := a.Items.(*jsonschema.Schema)
	bi, _ := b.Items.(*jsonschema.Schema)
	pairs = append(pairs, [2]*jsonschema.Schema{ap, bp}, [2]*jsonschema.Schema{ai, bi})
	for _, l := range [][2][]*jsonschema.Schema{{a.AllOf, b.AllOf}, {a.AnyOf, b.AnyOf}, {a.OneOf, b.OneOf}} {
		if len(l[0]) != len(l[1]) {
			return fmt.Errorf("%s: the branches differ", a.Location)
		}
		for i := range l[0] {
			pairs = append(pairs, [2]*jsonschema.Schema{l[0][i], l[1][i]})
		}
	}
	for name, p := range a.Properties {
		pairs = append(pairs, [2]*jsonschema.Schema{p, b.Properties[name]})
	}
	for _, p := range pairs {
		if err := sameSchema(p[0], p[1], fa, fb); err != nil {
			return err
		}
	}
	return nil
}

// TestHoistReadsKeywordsOnlyInSchemas: properties named like keywords
// ("id", "$id", "$ref", as the pinned schemas have "id") and keyword-like
// members of default or const values do not keep a deep document from
// being hoisted, which would make compiling it cubic in the depth; a real
// $id or a $ref into a definition does.
func TestHoistReadsKeywordsOnlyInSchemas(t *testing.T) {
	deep := func(leaf string) map[string]any {
		doc := `{"Leaf":` + leaf + `,"Root":` + strings.Repeat(`{"type":"array","items":`, 2*maxNesting) +
			`{"$ref":"#/$defs/Leaf"}` + strings.Repeat(`}`, 2*maxNesting) + `}`
		var defs map[string]any
		if err := json.Unmarshal([]byte(doc), &defs); err != nil {
			t.Fatal(err)
		}
		return defs
	}
	for leaf, want := range map[string]bool{
		`{"type":"object","properties":{"id":{"type":"string"},"$id":{"type":"string"},"$ref":{"type":"string"}}}`: true,
		`{"type":"object","default":{"$id":"x","$ref":"y"},"const":{"$anchor":"z"}}`:                               true,
		`{"type":"object","properties":{"a":{"$id":"x"}}}`:                                                         false,
		`{"type":"object","properties":{"a":{"$ref":"#/$defs/Root/items"}}}`:                                       false,
	} {
		if _, got, err := compilable(deep(leaf)); err != nil || got != want {
			t.Errorf("Leaf %s: hoisted %v (%v), want %v", leaf, got, err, want)
		}
	}
}
