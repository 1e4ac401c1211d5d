package pipeline

import (
	"fmt"
	"strings"
	"testing"
)

// nestingKinds are the ways a schema nests that -bench Scale and
// TestOutputLinearInDepthEveryKind grow one at a time: each returns a
// schema document whose definition Root nests depth levels of its kind
// around a reference to the definition Leaf. Leaf has properties named
// like keywords ("id", "$ref"), as the pinned schemas do, which must not
// keep deep schemas from being compiled in linear time.
// A kind acpgen refuses (refused names the keyword its error names) is
// measured by the time it takes to refuse it.
var nestingKinds = []struct {
	name    string
	schema  func(depth int) string
	refused string
}{
	// A definition that is a list of lists at its top.
	{"top-items", func(d int) string { return leafDoc(nest(d, `{"type":"array","items":`, `}`)) }, ""},
	// allOf around anything but one $ref is refused, at any depth.
	{"allOf", func(d int) string { return leafDoc(inProperty(nest(d, `{"allOf":[`, `]}`))) }, "allOf"},
	{"anyOf", func(d int) string {
		return leafDoc(inProperty(nest(d, `{"anyOf":[{"type":"string"},{"type":"array","items":`, `}]}`)))
	}, ""},
	{"oneOf", func(d int) string { return leafDoc(inProperty(nest(d, `{"oneOf":[{"type":"null"},`, `]}`))) }, ""},
	// A definition that is a union at its top.
	{"top-union", func(d int) string { return leafDoc(nest(d, `{"anyOf":[{"type":"null"},`, `]}`)) }, ""},
	{"additionalProperties", func(d int) string {
		return leafDoc(inProperty(nest(d, `{"type":"object","additionalProperties":`, `}`)))
	}, ""},
	// The unknown-variant branch of a union, the one place not is read.
	{"not", func(d int) string {
		return leafDoc(inProperty(nest(d, `{"anyOf":[{"$ref":"#/$defs/Leaf"},{"not":`, `}]}`)))
	}, ""},
}

// nest returns open depth times, a reference to Leaf, and close depth
// times.
func nest(depth int, open, close string) string {
	return strings.Repeat(open, depth) + `{"$ref":"#/$defs/Leaf"}` + strings.Repeat(close, depth)
}

// inProperty returns an object schema whose property "a" is s.
func inProperty(s string) string {
	return `{"type":"object","properties":{"a":` + s + `}}`
}

// leafDoc returns a schema document with the definitions Leaf, an object,
// and Root, whose schema is root.
func leafDoc(root string) string {
	return `{"$defs":{"Leaf":{"type":"object","properties":{"id":{"type":"string"},"$ref":{"type":"string","default":{"$id":"x"}}}},"Root":` + root + `}}`
}

// benchNesting adds to -bench Scale a case per way of nesting at depth.
func benchNesting(b *testing.B, depth int) {
	for _, k := range nestingKinds {
		b.Run(fmt.Sprintf("%s=%d", k.name, depth), func(b *testing.B) {
			if k.refused == "" {
				benchGenerate(b, schemaFS(k.schema(depth)), depth, "level")
				return
			}
			fsys := schemaFS(k.schema(depth))
			measure(b, depth, "level", func() {
				if _, err := Generate(fsys); err == nil {
					b.Fatalf("%s is generated, want it refused", k.name)
				}
			})
		})
	}
}

// TestOutputLinearInDepthEveryKind: for every way of nesting, each level
// adds the same amount of generated code however deep it is.
func TestOutputLinearInDepthEveryKind(t *testing.T) {
	for _, k := range nestingKinds {
		if k.refused != "" {
			for _, depth := range []int{50, 200} {
				if _, err := Generate(schemaFS(k.schema(depth))); err == nil || !strings.Contains(err.Error(), k.refused) {
					t.Errorf("%s at depth %d: %v, want an error that names %s", k.name, depth, err, k.refused)
				}
			}
			continue
		}
		size := func(depth int) int {
			out, err := Generate(schemaFS(k.schema(depth)))
			if err != nil {
				t.Fatalf("%s: %v", k.name, err)
			}
			n := 0
			for _, data := range out.Files {
				n += len(data)
			}
			return n
		}
		s50, s100, s200 := size(50), size(100), size(200)
		shallow, deep := float64(s100-s50)/50, float64(s200-s100)/100
		if deep > 1.02*shallow {
			t.Errorf("%s: a level adds %.0f bytes between depths 50 and 100, %.0f between 100 and 200", k.name, shallow, deep)
		}
	}
}
