package zoddiff

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/acpgen/acpgen/internal/jsontest"
	"github.com/acpgen/acpgen/schema"
)

// arbiter validates values against a pinned schema file with the reference
// decoder's x-deserialize-* rules applied: it is what judges a disagreement.
type arbiter struct {
	url  string
	c    *jsonschema.Compiler
	defs map[string]*jsonschema.Schema
}

// newArbiter compiles file (e.g. "v1/schema.json") after rewriting each
// annotated subschema into the values the reference decoder accepts there;
// strict leaves the annotations alone: it says what a decoder may produce.
func newArbiter(file string, strict bool) (*arbiter, map[string]any, error) {
	data, err := schema.FS.ReadFile(file)
	if err != nil {
		return nil, nil, err
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, nil, fmt.Errorf("%s: %v", file, err)
	}
	relaxed, err := json.Marshal(applyRules(doc, !strict))
	if err != nil {
		return nil, nil, err
	}
	a := &arbiter{url: "acp:///" + file, c: jsonschema.NewCompiler(), defs: map[string]*jsonschema.Schema{}}
	if err := a.c.AddResource(a.url, bytes.NewReader(relaxed)); err != nil {
		return nil, nil, err
	}
	// The raw document, unrelaxed, is what instances are made from.
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, nil, err
	}
	return a, doc, nil
}

// applyRules returns s with the integer formats' bounds written out and,
// when relax is set, with the decoding rules written as plain JSON Schema:
//   - x-deserialize-default-on-error: any present value is accepted (it
//     decodes to the default); a missing required key stays an error, as
//     the parent's required list still says;
//   - x-deserialize-skip-invalid-items alone: any array is accepted;
//   - x-deserialize-default-on-null: null is accepted besides the schema.
func applyRules(s any, relax bool) any {
	switch s := s.(type) {
	case map[string]any:
		for k, v := range s {
			s[k] = applyRules(v, relax)
		}
		if r, ok := intRanges[fmt.Sprint(s["format"])]; ok {
			// The integer formats bound the value; the arbiter does not
			// assert formats (uri, date-time), so the bounds are written out.
			s["minimum"], s["maximum"] = json.Number(r[0]), json.Number(r[1])
		}
		switch {
		case !relax:
		case s["x-deserialize-default-on-error"] == true:
			return map[string]any{}
		case s["x-deserialize-skip-invalid-items"] == true:
			out := map[string]any{"type": "array"}
			if s["x-deserialize-default-on-null"] == true {
				out["type"] = []any{"array", "null"}
			}
			return out
		case s["x-deserialize-default-on-null"] == true:
			return map[string]any{"anyOf": []any{map[string]any{"type": "null"}, s}}
		}
	case []any:
		for i, v := range s {
			s[i] = applyRules(v, relax)
		}
	}
	return s
}

// intRanges are the bounds of the schema's integer formats.
var intRanges = map[string][2]string{
	"int8":   {"-128", "127"},
	"int16":  {"-32768", "32767"},
	"int32":  {"-2147483648", "2147483647"},
	"int64":  {"-9223372036854775808", "9223372036854775807"},
	"uint8":  {"0", "255"},
	"uint16": {"0", "65535"},
	"uint32": {"0", "4294967295"},
	"uint64": {"0", "18446744073709551615"},
}

// valid reports whether data is a value of definition def.
func (a *arbiter) valid(def string, data []byte) (bool, error) {
	s := a.defs[def]
	if s == nil {
		var err error
		if s, err = a.c.Compile(a.url + "#/$defs/" + def); err != nil {
			return false, err
		}
		a.defs[def] = s
	}
	v, err := jsontest.Value(data)
	if err != nil {
		return false, err
	}
	return s.Validate(v) == nil, nil
}
