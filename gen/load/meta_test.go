package load

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/acpgen/acpgen/gen/diag"
)

// TestKeywordValues: a keyword value of the wrong type or range is a located
// error before the schema library sees it, also where another definition
// refers to the one at fault (which used to crash the library).
func TestKeywordValues(t *testing.T) {
	const valid = `"type": "string"`
	for _, tc := range []struct{ value, want string }{
		{`"type": "strng"`, `/$defs/A/properties/a/type: this is not valid JSON Schema: keyword type must be one of "array", "boolean", "integer", "null", "number", "object" or "string", or a non-empty array of distinct ones, not "strng"`},
		{`"type": ["string", "strng"]`, `/$defs/A/properties/a/type/1: this is not valid JSON Schema: each item of keyword type must be one of "array", "boolean", "integer", "null", "number", "object" or "string", each listed once, not "strng"`},
		{`"type": ["string", "string"]`, `/$defs/A/properties/a/type: this is not valid JSON Schema: keyword type must be one of "array", "boolean", "integer", "null", "number", "object" or "string", or a non-empty array of distinct ones, not ["string","string"]`},
		{`"required": "n"`, `/$defs/A/properties/a/required: this is not valid JSON Schema: keyword required must be an array of distinct strings, not "n"`},
		{`"required": [1]`, `/$defs/A/properties/a/required/0: this is not valid JSON Schema: each item of keyword required must be a string, each listed once, not 1`},
		{`"minLength": -1`, `/$defs/A/properties/a/minLength: this is not valid JSON Schema: keyword minLength must be a non-negative integer, not -1`},
		{`"maxItems": 1.5`, `/$defs/A/properties/a/maxItems: this is not valid JSON Schema: keyword maxItems must be a non-negative integer, not 1.5`},
		{`"minimum": "0"`, `/$defs/A/properties/a/minimum: this is not valid JSON Schema: keyword minimum must be a number, not "0"`},
		{`"pattern": "("`, `/$defs/A/properties/a/pattern: this is not valid JSON Schema: keyword pattern must be a regular expression as a string, not "("`},
		{`"enum": {}`, `/$defs/A/properties/a/enum: this is not valid JSON Schema: keyword enum must be an array, not {}`},
		{`"properties": []`, `/$defs/A/properties/a/properties: this is not valid JSON Schema: keyword properties must be an object whose members are schemas, not []`},
		{`"properties": {"x": {"type": null}}`, `/$defs/A/properties/a/properties/x/type: this is not valid JSON Schema: keyword type must be one of "array", "boolean", "integer", "null", "number", "object" or "string", or a non-empty array of distinct ones, not null`},
		{`"description": 7`, `/$defs/A/properties/a/description: this is not valid JSON Schema: keyword description must be a string, not 7`},
		{`"minLength": 3, "maxLength": 2`, `/$defs/A/properties/a/minLength: keyword minLength is 3, more than maxLength 2: no value is accepted, and no message could hold one`},
		{`"maxLength": 1e300`, `/$defs/A/properties/a/maxLength: keyword maxLength is 1e300, more than acpgen can count (at most 9007199254740991)`},
		{`"minimum": 2, "maximum": 1`, `/$defs/A/properties/a/minimum: keyword minimum is 2, more than maximum 1: no value is accepted, and no message could hold one`},
	} {
		doc := fmt.Sprintf(`{"$defs": {"A": {"type": "object", "properties": {"a": {%s}}}, "B": {"type": "object", "properties": {"b": {"$ref": "#/$defs/A/properties/a"}, "c": {"$ref": "#/$defs/A"}}}}}`, tc.value)
		_, err := Parse("v1/schema.json", []byte(doc))
		if err == nil || err.Error() != "v1/schema.json: "+tc.want {
			t.Errorf("%s:\n got %v\nwant v1/schema.json: %s", tc.value, err, tc.want)
		}
	}
	doc := fmt.Sprintf(`{"$defs": {"A": {%s}, "B": {"$ref": "#/$defs/A"}}}`, valid)
	if _, err := Parse("v1/schema.json", []byte(doc)); err != nil {
		t.Errorf("a valid file: %v", err)
	}
}

// TestAllProblemsAtOnce: the three problems of one file are all reported, and
// a file with many reports the first diag.MaxReported and counts the rest.
func TestAllProblemsAtOnce(t *testing.T) {
	doc := `{"$defs": {
  "A": {"type": "strng"},
  "B": {"type": "object", "required": "n", "properties": {"x": {"$ref": "#/$defs/A"}}},
  "C": {"type": "string", "minLength": -1}
}}`
	_, err := Parse("v1/schema.json", []byte(doc))
	err = diag.Locate(err, func(string) ([]byte, error) { return []byte(doc), nil })
	got := diag.All(err)
	if len(got) != 3 {
		t.Fatalf("%d problems, want 3:\n%v", len(got), err)
	}
	for i, want := range []string{"v1/schema.json:2:17: /$defs/A/type", "v1/schema.json:3:39: /$defs/B/required", "v1/schema.json:4:40: /$defs/C/minLength"} {
		if !strings.HasPrefix(got[i].Error(), want+": ") {
			t.Errorf("problem %d = %s, want it at %s", i, got[i], want)
		}
	}
	var defs []string
	for i := range 15 {
		defs = append(defs, fmt.Sprintf(`"D%02d": {"minLength": -%d}`, i, i+1))
	}
	_, err = Parse("v1/schema.json", []byte(`{"$defs": {`+strings.Join(defs, ",")+`}}`))
	if n := len(diag.All(err)); n != 15 {
		t.Errorf("%d problems, want 15", n)
	}
	if lines := strings.Split(err.Error(), "\n"); len(lines) != diag.MaxReported+1 || lines[diag.MaxReported] != "and 5 more problems" {
		t.Errorf("the message does not list %d problems and count the rest:\n%v", diag.MaxReported, err)
	}
}

func TestDeclaredDraft(t *testing.T) {
	for _, tc := range []struct{ schema, want string }{
		{`"https://json-schema.org/draft/2020-12/schema"`, ""},
		{`"http://json-schema.org/draft/2019-09/schema#"`, ""},
		{`"http://json-schema.org/draft-07/schema#"`, `v1/schema.json: /$schema: $schema "http://json-schema.org/draft-07/schema#" is not a draft acpgen reads; declare https://json-schema.org/draft/2020-12/schema (or https://json-schema.org/draft/2019-09/schema)`},
		{`4`, `v1/schema.json: /$schema: $schema must be a string naming a JSON Schema draft, not a number`},
	} {
		_, err := Parse("v1/schema.json", []byte(`{"$schema": `+tc.schema+`, "$defs": {"A": {"type": "string"}}}`))
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.schema, err)
		case tc.want != "" && (err == nil || err.Error() != tc.want):
			t.Errorf("%s:\n got %v\nwant %s", tc.schema, err, tc.want)
		}
	}
}

// TestValueKindsMatchMetaSchema holds the keyword value checks to the JSON
// Schema 2020-12 meta-schema, as the schema library reads it: for every
// keyword acpgen does not refuse outright and a range of values, a value
// is reported exactly when the meta-schema rejects it.
func TestValueKindsMatchMetaSchema(t *testing.T) {
	meta, err := jsonschema.NewCompiler().Compile(Drafts[0])
	if err != nil {
		t.Fatal(err)
	}
	values := []string{`"x"`, `"string"`, `"("`, `1`, `0`, `-1`, `1.5`, `1.0`, `2e3`, `true`, `null`, `[]`, `["a"]`,
		`["a", "a"]`, `[1]`, `["string", "integer"]`, `["string", "string"]`, `["strng"]`, `{}`, `{"a": {}}`,
		`{"a": 5}`, `{"a": ["x"]}`, `{"a": ["x", "x"]}`, `[{}]`, `[true, {}]`}
	var kws []string
	for kw := range valueKinds {
		if _, refused := Unsupported[kw]; !refused {
			kws = append(kws, kw)
		}
	}
	kws = append(kws, "const", "default", "x-unknown")
	checked := 0
	for _, kw := range kws {
		for _, v := range values {
			text := fmt.Sprintf(`{"$defs": {"A": {%q: %s}, "B": {}}}`, kw, v)
			dec := json.NewDecoder(strings.NewReader(text))
			dec.UseNumber()
			var doc map[string]any
			if err := dec.Decode(&doc); err != nil {
				t.Fatal(err)
			}
			wantBad := meta.Validate(doc) != nil
			var l diag.List
			checkKeywords("f", doc, &l)
			gotBad := false
			for _, e := range l.Errors() {
				gotBad = gotBad || strings.HasPrefix(e.Msg, "this is not valid JSON Schema") || strings.HasPrefix(e.Msg, "a schema must be") ||
					strings.Contains(e.Msg, "is not supported") // items given as an array: a tuple, refused as such
			}
			if kw == "$ref" {
				gotBad = l.Len() > 0 // any $ref but one to a definition is refused
				wantBad = wantBad || v != `"#/$defs/B"`
			}
			if gotBad != wantBad {
				t.Errorf("%s: %s: reported %v, the meta-schema rejects it: %v (%v)", kw, v, gotBad, wantBad, l.Err())
			}
			checked++
		}
	}
	t.Logf("%d keyword values compared with the meta-schema", checked)
}
