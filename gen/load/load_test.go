package load

import (
	"reflect"
	"strings"
	"testing"
)

const doc = `{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$defs": {
    "Zed": {"type": "object", "properties": {"b": {"type": "string"}, "a/b": {"type": "string"}, "_meta": {"type": "object", "x-deserialize-default-on-error": true}}},
    "Alpha": {"oneOf": [{"type": "string", "const": "x"}], "discriminator": {"propertyName": "kind"}, "x-method": "m/x", "x-side": "agent"}
  }
}`

func TestParse(t *testing.T) {
	f, err := Parse("v1/schema.json", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Defs) != 2 || f.Defs[0].Name != "Alpha" || f.Defs[1].Name != "Zed" {
		t.Fatalf("defs not sorted by name: %+v", f.Defs)
	}
	zed := f.Def("Zed")
	if got := f.Properties(zed); !reflect.DeepEqual(got, []string{"b", "a/b", "_meta"}) {
		t.Errorf("properties in file order = %q", got)
	}
	if got := Pointer(zed.Properties["a/b"]); got != "/$defs/Zed/properties/a~1b" {
		t.Errorf("pointer = %q", got)
	}
	if got := Where(zed); got != "v1/schema.json#/$defs/Zed" {
		t.Errorf("where = %q", got)
	}
	if got := DefName(zed); got != "Zed" {
		t.Errorf("def name = %q", got)
	}
	if !Annotate(zed.Properties["_meta"]).DefaultOnError || Annotate(zed.Properties["b"]).DefaultOnError {
		t.Error("x-deserialize-default-on-error not read from the right property")
	}
	a := Annotate(f.Def("Alpha"))
	if a.Method != "m/x" || a.Side != "agent" || a.Discriminator != "kind" {
		t.Errorf("annotations = %+v", a)
	}
	if f.Def("Missing") != nil {
		t.Error("Def of a missing name is not nil")
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ doc, want string }{
		{`{`, "v1/schema.json"},
		{`{"$defs": {}}`, "no $defs"},
		{`{"$defs": {"A": {"$ref": "#/$defs/B"}}}`, "#/$defs/A"},
		{`{"$defs": {"A": {"type": 5}}}`, "v1/schema.json"},
	} {
		_, err := Parse("v1/schema.json", []byte(tc.doc))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want one mentioning %q", tc.doc, err, tc.want)
		}
	}
}
