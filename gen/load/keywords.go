package load

import (
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/acpgen/acpgen/gen/diag"
)

// Unsupported lists the JSON Schema keywords acpgen does not generate code
// for. Ignoring one would change what a message means without a word, so a
// schema that uses one is an error at the keyword.
//
// Every keyword of JSON Schema 2020-12 (and of the earlier drafts the ACP
// files were written against) is in one of four groups, and a test makes
// sure of it: AnnotationKeywords, which say nothing a decoder could check;
// StructureKeywords, which the IR turns into Go types and their decoders;
// EnforcedKeywords, which the IR turns into checks the generated decoders
// make on each value (ir.Check); and Unsupported. A keyword in none of them
// is not JSON Schema, and JSON Schema ignores it; x-… keywords are the ACP
// schemas' own (load.Annotate).
var Unsupported = map[string]string{
	"patternProperties":     "properties selected by a pattern",
	"if":                    "conditional schemas (if/then/else)",
	"then":                  "conditional schemas (if/then/else)",
	"else":                  "conditional schemas (if/then/else)",
	"dependentSchemas":      "schemas that depend on a property's presence",
	"dependencies":          "schemas that depend on a property's presence",
	"dependentRequired":     "properties required by another one's presence",
	"prefixItems":           "tuples (prefixItems)",
	"additionalItems":       "tuples (additionalItems)",
	"unevaluatedItems":      "tuples (unevaluatedItems)",
	"$dynamicRef":           "dynamic references",
	"$dynamicAnchor":        "dynamic references",
	"$recursiveRef":         "recursive references",
	"$recursiveAnchor":      "recursive references",
	"$id":                   "schema identifiers, which move the base of references",
	"$anchor":               "anchors",
	"not":                   "negated schemas (not) outside the unknown-variant branch of a union",
	"multipleOf":            "multiples (multipleOf)",
	"minProperties":         "bounds on the number of members (minProperties)",
	"maxProperties":         "bounds on the number of members (maxProperties)",
	"propertyNames":         "schemas of property names (propertyNames)",
	"contains":              "array items that must match a schema (contains)",
	"minContains":           "array items that must match a schema (minContains)",
	"maxContains":           "array items that must match a schema (maxContains)",
	"uniqueItems":           "arrays of distinct items (uniqueItems), which the ACP schemas do not use",
	"unevaluatedProperties": "members checked against what other keywords did not evaluate (unevaluatedProperties other than true)",
}

// AnnotationKeywords are the keywords that describe a value without constraining
// it: JSON Schema 2020-12 makes format and the content keywords annotations
// too. acpgen reads format for the width of an integer (int32, uint64, …)
// and description for doc comments.
var AnnotationKeywords = []string{
	"title", "description", "$comment", "default", "examples", "deprecated", "readOnly", "writeOnly",
	"format", "contentEncoding", "contentMediaType", "contentSchema", "$schema", "discriminator",
}

// StructureKeywords are the keywords that make the Go types and their decoders:
// which kind of value, which members (required ones are checked), items,
// unions and references. allOf is one $ref (a definition under another
// description) or, in a union branch, the payloads the branch carries;
// not marks the unknown-variant branch of a union.
var StructureKeywords = []string{
	"type", "properties", "required", "additionalProperties", "items", "anyOf", "oneOf", "allOf",
	"$ref", "$defs", "definitions",
}

// EnforcedKeywords are the validation keywords the generated decoders check on
// each value, with the JSON path of a value that fails in the error; the
// x-deserialize-* rules apply to such a failure as to a value of the wrong
// type. Lengths are counted in characters (Unicode code points), as JSON
// Schema counts them; const and enum compare JSON values, numbers by value;
// a pattern is checked where Go's regular expressions read it as ECMA-262
// does (ir.Pattern) and refused elsewhere.
var EnforcedKeywords = []string{
	"minLength", "maxLength", "pattern", "minItems", "maxItems",
	"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "const", "enum",
}

// Subschema keywords: the walk descends into these.
var (
	schemaMaps   = []string{"$defs", "definitions", "properties", "patternProperties", "dependentSchemas"}
	schemaOne    = []string{"additionalProperties", "items", "additionalItems", "unevaluatedItems", "unevaluatedProperties", "contains", "propertyNames", "not", "if", "then", "else", "contentSchema"}
	schemaArrays = []string{"allOf", "anyOf", "oneOf", "prefixItems", "items"}
)

// checkKeywords reports, for the whole document doc, the keywords acpgen does
// not support, $refs that do not name one of its $defs entries (so nothing is
// read from outside the file: no file://, no network), and properties with
// an empty name.
func checkKeywords(file string, doc map[string]any, errs *diag.List) {
	defs, _ := doc["$defs"].(map[string]any)
	c := &keywordChecker{file: file, defs: defs, errs: errs}
	for _, name := range slices.Sorted(maps.Keys(defs)) {
		c.schema(defs[name], (*jsonPath)(nil).child("$defs").child(name), false)
	}
	if errs.Len() == 0 {
		c.refLoops()
	}
}

// refLoops reports definitions that lead back to themselves through $refs
// in place, with no property or item in between (A → B → A, U = anyOf[U]):
// no value could ever be decoded, and there is no type to generate.
func (c *keywordChecker) refLoops() {
	edges := map[string][]string{}
	for name, s := range c.defs {
		edges[name] = inPlaceRefs(s, nil)
	}
	const (
		white = iota
		grey
		black
	)
	color := map[string]int{}
	var path []string
	var visit func(name string)
	visit = func(name string) {
		color[name] = grey
		path = append(path, name)
		for _, next := range edges[name] {
			switch color[next] {
			case white:
				visit(next)
			case grey:
				i := len(path) - 1
				for path[i] != next {
					i--
				}
				loop := append(append([]string(nil), path[i:]...), next)
				c.errs.Addf(c.file, "/$defs/"+diag.EscapePointer(next), "definition %s refers to itself with nothing in between (%s); there is no type to generate", next, strings.Join(loop, " → "))
			}
		}
		path = path[:len(path)-1]
		color[name] = black
	}
	for _, name := range slices.Sorted(maps.Keys(c.defs)) {
		if color[name] == white {
			visit(name)
		}
	}
}

// inPlaceRefs appends the definitions that schema v refers to in place:
// its own $ref and those of its allOf, anyOf and oneOf branches.
func inPlaceRefs(v any, out []string) []string {
	s, _ := v.(map[string]any)
	if ref, ok := s["$ref"].(string); ok {
		if p, err := url.PathUnescape(strings.TrimPrefix(ref, "#/$defs/")); err == nil {
			out = append(out, unescape(p))
		}
	}
	for _, k := range []string{"allOf", "anyOf", "oneOf"} {
		arr, _ := s[k].([]any)
		for _, sub := range arr {
			out = inPlaceRefs(sub, out)
		}
	}
	return out
}

type keywordChecker struct {
	file string
	defs map[string]any
	errs *diag.List
}

func (c *keywordChecker) schema(v any, at *jsonPath, branch bool) {
	s, ok := v.(map[string]any)
	if !ok {
		if _, isBool := v.(bool); !isBool {
			c.errs.Addf(c.file, at.String(), "a schema must be an object or a boolean, not %s", kindOf(v))
		}
		return
	}
	for _, k := range slices.Sorted(maps.Keys(s)) {
		what, bad := Unsupported[k]
		if k == "not" && branch {
			bad = false // the unknown-variant branch of a union: "not any known tag"
		}
		if k == "items" {
			if _, tuple := s[k].([]any); tuple {
				what, bad = "tuples (items given as an array)", true
			}
		}
		if k == "unevaluatedProperties" && s[k] == true {
			bad = false // allows what the other keywords allow: nothing to check
		}
		if bad {
			c.errs.Addf(c.file, at.child(k).String(), "keyword %s is not supported: acpgen generates no code for %s", k, what)
		} else {
			checkValue(c.file, at.child(k), k, s[k], c.errs)
		}
	}
	checkRanges(c.file, at, s, c.errs)
	if enum, ok := s["enum"].([]any); ok && len(enum) == 0 {
		c.errs.Addf(c.file, at.child("enum").String(), "an empty enum accepts no value; no message could hold one")
	}
	if ref, ok := s["$ref"]; ok {
		c.ref(ref, at.child("$ref"))
	}
	if _, ok := s["$schema"]; ok {
		c.errs.Addf(c.file, at.child("$schema").String(), "$schema inside a definition is not supported: the whole file is read as one draft")
	}
	if props, ok := s["properties"].(map[string]any); ok {
		if _, ok := props[""]; ok {
			c.errs.Addf(c.file, at.child("properties").child("").String(), "a property with an empty name cannot become a Go field")
		}
	}
	for _, k := range schemaMaps {
		m, _ := s[k].(map[string]any)
		for _, name := range slices.Sorted(maps.Keys(m)) {
			c.schema(m[name], at.child(k).child(name), false)
		}
	}
	for _, k := range schemaOne {
		if sub, ok := s[k]; ok {
			if _, isArray := sub.([]any); !isArray {
				c.schema(sub, at.child(k), false)
			}
		}
	}
	for _, k := range schemaArrays {
		arr, _ := s[k].([]any)
		for i, sub := range arr {
			c.schema(sub, at.child(k).child(strconv.Itoa(i)), k == "anyOf" || k == "oneOf")
		}
	}
}

// ref accepts only "#/$defs/Name" with Name one of the file's definitions.
// The pointer at is written out only for a problem: every level of a deep
// schema may hold a reference, and its pointer is as long as its depth.
func (c *keywordChecker) ref(v any, at *jsonPath) {
	ref, ok := v.(string)
	if !ok {
		c.errs.Addf(c.file, at.String(), "$ref must be a string, not %s", kindOf(v))
		return
	}
	frag, ok := strings.CutPrefix(ref, "#")
	if !ok {
		c.errs.Addf(c.file, at.String(), "$ref %q points outside the schema file; only references to its own $defs (#/$defs/Name) are followed", ref)
		return
	}
	p, err := url.PathUnescape(frag)
	if err != nil {
		c.errs.Addf(c.file, at.String(), "$ref %q is not a valid JSON pointer", ref)
		return
	}
	name, ok := strings.CutPrefix(p, "/$defs/")
	if ok && strings.Contains(name, "/") {
		// A schema inside a definition: it must be there.
		if !c.resolves(p) {
			c.errs.Addf(c.file, at.String(), "$ref %q points to nothing in the file", ref)
		}
		return
	}
	if !ok {
		c.errs.Addf(c.file, at.String(), "$ref %q does not name a $defs entry; only references within the file's $defs are followed", ref)
		return
	}
	name = unescape(name)
	if _, ok := c.defs[name]; !ok {
		c.errs.Addf(c.file, at.String(), "$ref %q names the $defs entry %q, which the file does not have", ref, name)
	}
}

// resolves reports whether the JSON pointer p (below /$defs) names a value.
func (c *keywordChecker) resolves(p string) bool {
	var v any = map[string]any{"$defs": c.defs}
	for _, tok := range strings.Split(strings.TrimPrefix(p, "/"), "/") {
		tok = unescape(tok)
		switch x := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = x[tok]; !ok {
				return false
			}
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(x) {
				return false
			}
			v = x[i]
		default:
			return false
		}
	}
	return true
}

func kindOf(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	case bool:
		return "a boolean"
	}
	return fmt.Sprintf("a number")
}
