package load

import (
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// TestPropertyOrder: every schema that can hold properties (a definition,
// a property, a list item, a map value, a branch of anyOf, oneOf or allOf,
// not) lists them in file order.
func TestPropertyOrder(t *testing.T) {
	props := `"properties":{"z":{"type":"string"},"a":{"type":"string"},"m":{"type":"string"}}`
	doc := `{"$defs":{"D":{"type":"object",` + props + `,"additionalProperties":{"type":"object",` + props + `}},
		"L":{"type":"array","items":{"type":"object",` + props + `}},
		"U":{"anyOf":[{"type":"null"},{"type":"object",` + props + `}]},
		"O":{"oneOf":[{"type":"object",` + props + `,"not":{` + props + `}}]},
		"A":{"allOf":[{"type":"object",` + props + `}]}}}`
	f, err := Parse("order.json", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []*jsonschema.Schema{
		f.Def("D"), f.Def("D").AdditionalProperties.(*jsonschema.Schema), f.Def("L").Items.(*jsonschema.Schema),
		f.Def("U").AnyOf[1], f.Def("O").OneOf[0], f.Def("O").OneOf[0].Not, f.Def("A").AllOf[0],
	} {
		if got := strings.Join(f.Properties(s), ","); got != "z,a,m" {
			t.Errorf("%s: properties %s, want z,a,m", Pointer(s), got)
		}
	}
}
