package ir

import (
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// intRef maps an integer format to the Go integer that holds its whole range.
func intRef(s *jsonschema.Schema) (Ref, error) {
	switch s.Format {
	case "int8":
		return Ref{Kind: RefInt, Bits: 8}, nil
	case "int16":
		return Ref{Kind: RefInt, Bits: 16}, nil
	case "int32":
		return Ref{Kind: RefInt, Bits: 32}, nil
	case "int64", "":
		return Ref{Kind: RefInt, Bits: 64}, nil
	case "uint8":
		return Ref{Kind: RefInt, Bits: 8, Unsigned: true}, nil
	case "uint16":
		return Ref{Kind: RefInt, Bits: 16, Unsigned: true}, nil
	case "uint32":
		return Ref{Kind: RefInt, Bits: 32, Unsigned: true}, nil
	case "uint64", "uint":
		return Ref{Kind: RefInt, Bits: 64, Unsigned: true}, nil
	}
	return Ref{}, errorf(s, "unsupported integer format %q", s.Format)
}

// allOfParts reports an allOf that is more than one $ref: acpgen does
// not merge schemas, so parts that add to each other or conflict (a string
// with an integer, a property of two types) would be lost. Union branches
// are read apart (variantBody), where allOf lists the payloads.
func allOfParts(s *jsonschema.Schema) error {
	if len(s.AllOf) == 0 || isSingleRef(s) {
		return nil
	}
	return errorf(s.AllOf[0], "allOf with several parts, or beside type, properties or anyOf, is not supported: acpgen does not merge schemas, so parts that add to or conflict with each other would be lost; write one schema, or one $ref")
}

// acceptsAll reports whether s lets every value through: true, or {}.
func acceptsAll(s *jsonschema.Schema) bool {
	if s.Always != nil {
		return *s.Always
	}
	if !isFreeForm(s) || s.Not != nil || len(s.Constant) > 0 || s.Enum != nil {
		return false
	}
	c, err := checkOf(Ref{Kind: RefRaw}, s)
	return err == nil && c == nil
}

// keywordsOf names the validation keywords s has, for an error.
func keywordsOf(s *jsonschema.Schema) string {
	var out []string
	add := func(ok bool, k string) {
		if ok {
			out = append(out, k)
		}
	}
	add(s.MinLength >= 0, "minLength")
	add(s.MaxLength >= 0, "maxLength")
	add(s.MinItems >= 0, "minItems")
	add(s.MaxItems >= 0, "maxItems")
	add(s.Minimum != nil, "minimum")
	add(s.Maximum != nil, "maximum")
	add(s.ExclusiveMinimum != nil, "exclusiveMinimum")
	add(s.ExclusiveMaximum != nil, "exclusiveMaximum")
	add(len(s.Constant) > 0, "const")
	add(s.Enum != nil, "enum")
	add(s.Always != nil && !*s.Always, "the schema false")
	return strings.Join(out, ", ")
}

func branches(s *jsonschema.Schema) []*jsonschema.Schema {
	if len(s.AnyOf) > 0 {
		return s.AnyOf
	}
	return s.OneOf
}

func isSingleRef(s *jsonschema.Schema) bool {
	return len(s.AllOf) == 1 && s.AllOf[0].Ref != nil && len(s.Types) == 0 && len(s.Properties) == 0 && len(branches(s)) == 0
}

func isNull(s *jsonschema.Schema) bool {
	return len(s.Types) == 1 && s.Types[0] == "null" && s.Ref == nil && len(s.AllOf) == 0
}

func isNullable(s *jsonschema.Schema) bool {
	if hasType(s, "null") {
		return true
	}
	for _, br := range branches(s) {
		if isNull(br) {
			return true
		}
	}
	return false
}

func isFreeForm(s *jsonschema.Schema) bool {
	return len(s.Types) == 0 && len(s.Properties) == 0 && len(branches(s)) == 0 && len(s.AllOf) == 0 && s.Ref == nil
}

func hasType(s *jsonschema.Schema, t string) bool {
	for _, x := range s.Types {
		if x == t {
			return true
		}
	}
	return false
}

func withoutNull(types []string) []string {
	var out []string
	for _, t := range types {
		if t != "null" {
			out = append(out, t)
		}
	}
	return out
}

func upperFirst(s string) string {
	s = strings.TrimLeft(s, "_")
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
