package pipeline

import (
	"bytes"
	"encoding/json"
	"go/parser"
	"go/token"
	"sort"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/acpgen/acpgen/gen/diag"
	"github.com/acpgen/acpgen/gen/load"
)

// FuzzKeywordValues gives one keyword of one schema inside a pinned v1
// definition a value of another type or range ("type": "strng",
// "required": "n", "minLength": -1, an x-method that is a number, …),
// then cuts the file down to what that definition reaches. Generation never
// panics; a failure is a located error; a file the JSON Schema 2020-12
// meta-schema rejects is never generated from; and every file of a
// success parses as Go.
func FuzzKeywordValues(f *testing.F) {
	m := newMutator(f)
	names := sortedNames(clone(f, m.stable))
	index := func(name string) uint16 { return uint16(sort.SearchStrings(names, name)) }
	kw := func(name string) uint8 {
		for i, k := range fuzzKeywords {
			if k == name {
				return uint8(i)
			}
		}
		f.Fatalf("no keyword %s", name)
		return 0
	}
	block, text := index("ContentBlock"), index("TextContent")
	for _, s := range []struct {
		root, at uint16
		kw, kind uint8
		s        string
		n        int64
	}{
		{block, 0, kw("type"), valString, "strng", 0},
		{text, 0, kw("required"), valString, "n", 0},
		{text, 1, kw("minLength"), valInt, "", -1},
		{text, 1, kw("type"), valStrings, "string", 0},
		{text, 0, kw("properties"), valArray, "", 0},
		{block, 0, kw("oneOf"), valObject, "x", 0},
		{block, 0, kw("discriminator"), valString, "type", 0},
		{text, 0, kw("x-method"), valInt, "", 7},
		{text, 1, kw("pattern"), valString, "(", 0},
		{text, 1, kw("maxLength"), valFloat, "", 1e18},
		{block, 2, kw("enum"), valObject, "", 0},
		{text, 0, kw("x-side"), valBool, "", 0},
	} {
		f.Add(s.root, s.at, s.kw, s.kind, s.s, s.n)
	}
	meta, err := jsonschema.NewCompiler().Compile(load.Drafts[0])
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, root, at uint16, kw, kind uint8, s string, n int64) {
		fsys := m.withValue(t, root, at, fuzzKeywords[int(kw)%len(fuzzKeywords)], fuzzValue(kind, s, n))
		out, err := generateSafely(hostileCase{fsys: fsys})
		if err != nil {
			msg := err.Error()
			if strings.HasPrefix(msg, "panic:") || strings.Contains(msg, "internal error") {
				t.Fatal(msg)
			}
			if len(diag.All(err)) == 0 {
				t.Fatalf("an error that is not located: %v", err)
			}
			return
		}
		if verr := meta.Validate(decodeNumbers(t, fsys["v1/schema.json"].Data)); verr != nil {
			t.Fatalf("generated from a file the meta-schema rejects: %v", verr)
		}
		// Type checks are FuzzSchema's and TestEmitCannotFail's; here the
		// inputs go by fast enough to reach the keywords deep in a file.
		for name, src := range out.Files {
			if _, err := parser.ParseFile(token.NewFileSet(), name, src, parser.SkipObjectResolution); err != nil {
				t.Fatalf("generated file does not parse: %v", err)
			}
		}
	})
}

// fuzzKeywords are the keywords FuzzKeywordValues gives values to: those of
// JSON Schema and the ACP files' own.
var fuzzKeywords = []string{
	"type", "required", "properties", "additionalProperties", "items", "anyOf", "oneOf", "allOf", "$ref",
	"enum", "const", "default", "minLength", "maxLength", "pattern", "minItems", "maxItems", "minimum",
	"maximum", "exclusiveMinimum", "exclusiveMaximum", "format", "description", "title", "deprecated",
	"discriminator", "x-method", "x-side", "x-deserialize-default-on-error", "$defs", "not", "examples",
	"readOnly", "uniqueItems", "contentSchema", "$comment",
}

// The values FuzzKeywordValues gives.
const (
	valString  = iota // s
	valInt            // n
	valFloat          // n/3
	valBool           // n is odd
	valNull           //
	valArray          // []
	valStrings        // [s, s]
	valObject         // {s: {}}
	valNested         // {"propertyName": s} or [{"type": s}]
	valCount
)

func fuzzValue(kind uint8, s string, n int64) any {
	switch kind % valCount {
	case valString:
		return s
	case valInt:
		return n
	case valFloat:
		return float64(n) / 3
	case valBool:
		return n%2 != 0
	case valNull:
		return nil
	case valArray:
		return []any{}
	case valStrings:
		return []any{s, s}
	case valObject:
		return map[string]any{s: map[string]any{}}
	}
	if n%2 == 0 {
		return map[string]any{"propertyName": s}
	}
	return []any{map[string]any{"type": s}}
}

// withValue returns the schema directory with keyword kw of the at-th
// schema inside definition root set to v, cut down to what root reaches.
func (m *mutator) withValue(t testing.TB, root, at uint16, kw string, v any) fstest.MapFS {
	defs := clone(t, m.stable)
	names := sortedNames(defs)
	r := names[int(root)%len(names)]
	var schemas []map[string]any
	collectSchemas(defs[r], &schemas)
	if len(schemas) > 0 {
		schemas[int(at)%len(schemas)][kw] = v
	}
	return fstest.MapFS{"v1/schema.json": {Data: cut(t, defs, r)}}
}

// collectSchemas appends the objects in v, depth first: the schema itself,
// its subschemas, and any other object a keyword holds.
func collectSchemas(v any, out *[]map[string]any) {
	switch x := v.(type) {
	case map[string]any:
		*out = append(*out, x)
		for _, k := range sortedNames(x) {
			collectSchemas(x[k], out)
		}
	case []any:
		for _, e := range x {
			collectSchemas(e, out)
		}
	}
}

func decodeNumbers(t *testing.T, data []byte) any {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return v
}
