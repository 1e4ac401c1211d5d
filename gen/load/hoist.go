package load

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// jsonschema/v5 checks a document against its meta-schema when it compiles
// it, and builds the location of every keyword it tries from the whole
// stack of schemas above it: inline schemas nested n deep cost n³. To keep
// compiling linear in the nesting depth, Parse moves every schema nested
// deeper than maxNesting below its definition into a definition of its
// own (hoist), leaving a $ref in its place, and after compiling puts each
// moved schema back where the $ref was, with the locations it has in the
// file (unhoist): what Parse returns is the same either way.

// compilable returns the document to compile for the definitions defs, with
// deep schemas hoisted, and whether any were.
func compilable(defs map[string]any) ([]byte, bool, error) {
	if moved, ok := hoist(defs); ok {
		doc, err := json.Marshal(map[string]any{"$defs": moved})
		return doc, true, err
	}
	doc, err := json.Marshal(map[string]any{"$defs": defs})
	return doc, false, err
}

// maxNesting is how deep inline schemas may nest before they are moved (a
// variable so that tests can move every schema).
var maxNesting = 6

// hoistPrefix begins the names of the definitions hoist makes.
const hoistPrefix = "acpgen-inline-"

// subschemaLists and subschemaMaps are the keywords whose values are lists
// or maps of schemas that hoist moves; subschemaOne hold a single schema.
// unhoist puts back exactly these.
var (
	subschemaOne   = []string{"additionalProperties", "items", "not"}
	subschemaLists = []string{"allOf", "anyOf", "oneOf"}
	subschemaMaps  = []string{"properties"}
)

// hoist returns defs with the schemas nested deeper than maxNesting moved
// into definitions of their own, and whether it moved any. It moves nothing
// when the document refers to anything but whole definitions or declares
// identifiers, as moving schemas would change what those mean.
func hoist(defs map[string]any) (map[string]any, bool) {
	h := &hoister{defs: defs, out: map[string]any{}}
	for name, d := range defs {
		if strings.HasPrefix(name, hoistPrefix) {
			return defs, false
		}
		h.out[name] = d
	}
	if !h.safeKeyword("$defs", defs) || h.depth(defs) <= maxNesting {
		return defs, false
	}
	for name, d := range defs {
		h.out[name] = h.walk(d, 0)
	}
	return h.out, h.n > 0
}

type hoister struct {
	defs map[string]any
	out  map[string]any
	n    int
}

// safe reports whether schema v has no $ref other than to a whole
// definition and no $id, $anchor or dynamic reference. It reads keywords
// only where a schema has them: the names of properties and definitions
// and the values of const, enum, default and examples are data, so a
// property called "id" or "$ref" does not keep the document from being
// hoisted (the pinned schemas have such properties).
func (h *hoister) safe(v any) bool {
	s, ok := v.(map[string]any)
	if !ok {
		list, _ := v.([]any)
		for _, x := range list {
			if !h.safe(x) {
				return false
			}
		}
		return true
	}
	for k, x := range s {
		switch k {
		case "$id", "$anchor", "$dynamicAnchor", "$recursiveAnchor", "$dynamicRef", "$recursiveRef":
			return false
		case "$ref":
			ref, ok := x.(string)
			name, found := strings.CutPrefix(ref, "#/$defs/")
			if !ok || !found || strings.ContainsAny(name, "/~%") || h.defs[name] == nil {
				return false
			}
		case "const", "enum", "default", "examples":
			// Values, not schemas.
		default:
			if !h.safeKeyword(k, x) {
				return false
			}
		}
	}
	return true
}

// safeKeyword reports whether the value x of keyword k is safe: the
// schemas of a map of named schemas, or x itself read as a schema or a
// list of schemas.
func (h *hoister) safeKeyword(k string, x any) bool {
	if !slices.Contains(schemaMaps, k) {
		return h.safe(x)
	}
	m, _ := x.(map[string]any)
	for _, sub := range m {
		if !h.safe(sub) {
			return false
		}
	}
	return true
}

// depth is the deepest nesting of JSON values in v.
func (h *hoister) depth(v any) int {
	most := 0
	switch v := v.(type) {
	case map[string]any:
		for _, x := range v {
			most = max(most, 1+h.depth(x))
		}
	case []any:
		for _, x := range v {
			most = max(most, 1+h.depth(x))
		}
	}
	return most
}

// walk returns schema s, at nesting level depth below its definition, with
// its subschemas that are too deep replaced by references.
func (h *hoister) walk(s any, depth int) any {
	obj, ok := s.(map[string]any)
	if !ok {
		return s
	}
	if depth > maxNesting {
		h.n++
		name := fmt.Sprintf("%s%d", hoistPrefix, h.n)
		h.out[name] = h.walk(obj, 0)
		return map[string]any{"$ref": "#/$defs/" + name}
	}
	out := make(map[string]any, len(obj))
	for k, v := range obj {
		out[k] = v
	}
	for _, k := range subschemaOne {
		if v, ok := obj[k]; ok {
			out[k] = h.walk(v, depth+1)
		}
	}
	for _, k := range subschemaLists {
		if list, ok := obj[k].([]any); ok {
			moved := make([]any, len(list))
			for i, v := range list {
				moved[i] = h.walk(v, depth+1)
			}
			out[k] = moved
		}
	}
	for _, k := range subschemaMaps {
		if m, ok := obj[k].(map[string]any); ok {
			moved := make(map[string]any, len(m))
			for name, v := range m {
				moved[name] = h.walk(v, depth+1)
			}
			out[k] = moved
		}
	}
	return out
}

// unhoist puts every moved schema under s back in place of its reference,
// giving it and what it holds their locations in the file.
func unhoist(s *jsonschema.Schema) {
	unhoistFrom(s, "", "")
}

// unhoistFrom does unhoist for s, whose location and those below it begin
// with from where the file has to.
func unhoistFrom(s *jsonschema.Schema, from, to string) {
	if from != "" && strings.HasPrefix(s.Location, from) {
		s.Location = to + s.Location[len(from):]
	}
	slot := func(c **jsonschema.Schema) {
		child := *c
		if child == nil {
			return
		}
		if !isHoistRef(child) {
			unhoistFrom(child, from, to)
			return
		}
		loc := child.Location
		if from != "" && strings.HasPrefix(loc, from) {
			loc = to + loc[len(from):]
		}
		moved := child.Ref
		*c = moved
		unhoistFrom(moved, moved.Location, loc)
	}
	if a, ok := s.AdditionalProperties.(*jsonschema.Schema); ok {
		slot(&a)
		s.AdditionalProperties = a
	}
	if i, ok := s.Items.(*jsonschema.Schema); ok {
		slot(&i)
		s.Items = i
	}
	slot(&s.Not)
	for _, list := range [][]*jsonschema.Schema{s.AllOf, s.AnyOf, s.OneOf} {
		for i := range list {
			slot(&list[i])
		}
	}
	for name, p := range s.Properties {
		slot(&p)
		s.Properties[name] = p
	}
}

// isHoistRef reports whether s is a reference that hoist put in place of a
// schema.
func isHoistRef(s *jsonschema.Schema) bool {
	return s.Ref != nil && strings.HasPrefix(DefName(s.Ref), hoistPrefix)
}
