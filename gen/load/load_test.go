package load

import (
	"reflect"
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
	if got := FileOf(zed); got != "v1/schema.json" {
		t.Errorf("file = %q", got)
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
		{"{\n  \"$defs\": ", "v1/schema.json:2:12: the file is not valid JSON: unexpected EOF"},
		{`[]`, "v1/schema.json: the schema document must be a JSON object, not an array"},
		{"{}\n{}", "v1/schema.json:2:1: the file is not valid JSON: data after the schema document"},
		{`{"$defs": {}}`, "v1/schema.json: the schema has no $defs: there is nothing to generate"},
		{`{"$defs": {"A": {"$ref": "#/$defs/B"}}}`, `v1/schema.json: /$defs/A/$ref: $ref "#/$defs/B" names the $defs entry "B", which the file does not have`},
		{`{"$defs": {"A": {"$ref": "file:///etc/passwd"}}}`, `v1/schema.json: /$defs/A/$ref: $ref "file:///etc/passwd" points outside the schema file; only references to its own $defs (#/$defs/Name) are followed`},
		{`{"$defs": {"A": {"$ref": "https://example.com/s.json#/$defs/A"}}}`, `v1/schema.json: /$defs/A/$ref: $ref "https://example.com/s.json#/$defs/A" points outside the schema file; only references to its own $defs (#/$defs/Name) are followed`},
		{`{"$defs": {"A": {"$ref": "#/$defs/B/properties/x"}, "B": {}}}`, `v1/schema.json: /$defs/A/$ref: $ref "#/$defs/B/properties/x" points to nothing in the file`},
		{`{"$defs": {"A": {"$ref": "#/properties/x"}}}`, `v1/schema.json: /$defs/A/$ref: $ref "#/properties/x" does not name a $defs entry; only references within the file's $defs are followed`},
		{`{"$defs": {"A b": {}, "A": {"$ref": "#/$defs/A%20b"}}}`, ""},
		{`{"$defs": {"A": {"type": "object", "properties": {"": {"type": "string"}}}}}`, "v1/schema.json: /$defs/A/properties/: a property with an empty name cannot become a Go field"},
		{`{"$defs": {"A": {"type": "object", "patternProperties": {"^x": {}}, "not": {}}}}`, "v1/schema.json: /$defs/A/not: keyword not is not supported: acpgen generates no code for negated schemas (not) outside the unknown-variant branch of a union\n" +
			"v1/schema.json: /$defs/A/patternProperties: keyword patternProperties is not supported: acpgen generates no code for properties selected by a pattern"},
		{`{"$defs": {"A": {"anyOf": [{"not": {}}]}}}`, ""},
		{`{"$defs": {"A": {"type": "array", "items": [{}]}}}`, "v1/schema.json: /$defs/A/items: keyword items is not supported: acpgen generates no code for tuples (items given as an array)"},
		{`{"$defs": {"A": {"type": 5}}}`, `v1/schema.json: /$defs/A/type: this is not valid JSON Schema: keyword type must be one of "array", "boolean", "integer", "null", "number", "object" or "string", or a non-empty array of distinct ones, not 5`},
		{`{"$defs": {"A": {"anyOf": []}}}`, "v1/schema.json: /$defs/A/anyOf: this is not valid JSON Schema: keyword anyOf must be a non-empty array of schemas, not []"},
	} {
		_, err := Parse("v1/schema.json", []byte(tc.doc))
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: unexpected error %v", tc.doc, err)
		case tc.want == "":
		case err == nil:
			t.Errorf("%s: no error, want %q", tc.doc, tc.want)
		case err.Error() != tc.want:
			t.Errorf("%s:\n got %s\nwant %s", tc.doc, err, tc.want)
		}
	}
}

// TestKeywordGroups checks that every keyword of JSON Schema 2020-12 (and
// of draft 2019-09 and draft 7 before it) is in exactly one of the groups
// of keywords.go: none is ignored without a decision.
func TestKeywordGroups(t *testing.T) {
	all := []string{
		"$schema", "$id", "$ref", "$anchor", "$dynamicRef", "$dynamicAnchor", "$recursiveRef", "$recursiveAnchor",
		"$vocabulary", "$comment", "$defs", "definitions",
		"allOf", "anyOf", "oneOf", "not", "if", "then", "else", "dependentSchemas", "dependencies",
		"prefixItems", "items", "additionalItems", "contains", "properties", "patternProperties",
		"additionalProperties", "propertyNames", "unevaluatedItems", "unevaluatedProperties",
		"type", "enum", "const", "multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum",
		"maxLength", "minLength", "pattern", "maxItems", "minItems", "uniqueItems", "maxContains", "minContains",
		"maxProperties", "minProperties", "required", "dependentRequired",
		"format", "contentEncoding", "contentMediaType", "contentSchema",
		"title", "description", "default", "deprecated", "readOnly", "writeOnly", "examples",
	}
	groups := map[string]int{}
	for k := range Unsupported {
		groups[k]++
	}
	for _, list := range [][]string{AnnotationKeywords, StructureKeywords, EnforcedKeywords} {
		for _, k := range list {
			groups[k]++
		}
	}
	for _, k := range all {
		if k == "$vocabulary" {
			continue // only in meta-schemas, which are not read
		}
		if groups[k] != 1 {
			t.Errorf("keyword %s is in %d groups, want 1", k, groups[k])
		}
	}
}
