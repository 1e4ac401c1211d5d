package conformance

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/acpgen/acpgen/internal/jsontest"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/acpgen/acpgen/gen/load"
	"github.com/acpgen/acpgen/schema"
)

// RunMutations mutates the params and results of the corpus messages and
// checks the decoders against the schema's rules:
//   - dropping a required key (where the schema then rejects the message) is
//     a decode error;
//   - giving an optional x-deserialize-default-on-error member a value of the
//     wrong type decodes as if the member were absent.
//
// Members with a lenient rule are not descended into: the reference swallows
// errors inside them too. It fails when it made fewer than min mutations of
// each kind.
func RunMutations(t *testing.T, p Package, min int) {
	data, err := schema.FS.ReadFile(p.File)
	if err != nil {
		t.Fatal(err)
	}
	file, err := load.Parse(p.File, data)
	if err != nil {
		t.Fatal(err)
	}
	defs := LoadSchema(t, p.File)
	var dropped, retyped int
	for _, m := range Messages(t, p.Version) {
		if m.Draft && !p.Drafts {
			continue
		}
		def := defs.Def(m)
		if def == "" || m.Params == nil || defs.Validate(def, m.Params) != nil {
			continue
		}
		root, err := jsontest.Value(m.Params)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := root.(map[string]any); !ok {
			continue
		}
		mu := &mutation{t: t, p: p, m: m, def: def, sch: file.Def(def), root: root}
		walk(mu.sch, root, "", func(path string, obj map[string]any, required map[string]bool, props map[string]*jsonschema.Schema) {
			dropped += mu.dropRequired(path, obj, required)
			retyped += mu.retype(path, obj, required, props)
		})
	}
	t.Logf("%d required keys dropped, %d default-on-error members retyped", dropped, retyped)
	if dropped < min || retyped < min {
		t.Errorf("made %d and %d mutations, want at least %d of each", dropped, retyped, min)
	}
}

// mutation mutates the params or result root of message m, of definition
// def whose schema is sch, in place, and puts each member back.
type mutation struct {
	t    *testing.T
	p    Package
	m    Message
	def  string
	sch  *jsonschema.Schema
	root any
}

// decodes decodes root as it stands into its typed value, and returns the
// value's encoding.
func (mu *mutation) decodes() ([]byte, error) {
	in, err := json.Marshal(mu.root)
	if err != nil {
		mu.t.Fatal(err)
	}
	typed := mu.p.New(mu.m)
	if err := json.Unmarshal(in, typed); err != nil {
		return nil, err
	}
	return json.Marshal(typed)
}

// dropRequired drops each required member of obj whose absence the schema
// rejects, expects a decode error, and returns how many it dropped.
func (mu *mutation) dropRequired(path string, obj map[string]any, required map[string]bool) int {
	n := 0
	for key := range required {
		val, ok := obj[key]
		if !ok {
			continue
		}
		delete(obj, key)
		if stillValid(mu.sch, mu.root) {
			obj[key] = val
			continue
		}
		if _, err := mu.decodes(); err == nil {
			mu.t.Errorf("%s: without the required %s.%s, %s decoded without error", mu.m.Name, path, key, mu.def)
		}
		n++
		obj[key] = val
	}
	return n
}

// retype gives each optional default-on-error member of obj a value of the
// wrong type, expects it to decode as the default, and returns how many it
// retyped.
func (mu *mutation) retype(path string, obj map[string]any, required map[string]bool, props map[string]*jsonschema.Schema) int {
	n := 0
	for key, prop := range props {
		val, ok := obj[key]
		if !ok || required[key] || !load.Annotate(prop).DefaultOnError {
			continue
		}
		wrong, ok := wrongValue(prop)
		if !ok {
			continue
		}
		// The default is absence, or an empty list or map where the member
		// cannot be null.
		delete(obj, key)
		if empty := emptyOf(prop); empty != nil {
			obj[key] = empty
		}
		want, err := mu.decodes()
		obj[key] = wrong
		got, gerr := mu.decodes()
		obj[key] = val
		if err != nil {
			continue // the message needs the member
		}
		n++
		switch {
		case gerr != nil:
			mu.t.Errorf("%s: %s.%s = %s: %v; want the default", mu.m.Name, path, key, mustJSON(wrong), gerr)
		case !bytes.Equal(got, want):
			mu.t.Errorf("%s: %s.%s = %s decoded to %s; want the default: %s", mu.m.Name, path, key, mustJSON(wrong), got, want)
		}
	}
	return n
}

// emptyOf returns the empty value that is the default of a list or map
// member that cannot be null, or nil.
func emptyOf(s *jsonschema.Schema) any {
	if len(s.Types) != 1 {
		return nil
	}
	switch s.Types[0] {
	case "array":
		return []any{}
	case "object":
		if len(s.Properties) == 0 {
			if _, ok := s.AdditionalProperties.(*jsonschema.Schema); ok {
				return map[string]any{}
			}
		}
	}
	return nil
}

func stillValid(s *jsonschema.Schema, v any) bool { return s.Validate(v) == nil }

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// wrongValue returns a JSON value that the schema of a member rejects.
func wrongValue(s *jsonschema.Schema) (any, bool) {
	for _, v := range []any{json.Number("12345"), "wrong", true, []any{json.Number("1")}, map[string]any{"x": json.Number("1")}} {
		if s.Validate(v) != nil {
			return v, true
		}
	}
	return nil, false
}

// walk visits every object in v that s describes, with its required keys
// and property schemas, descending into members without lenient rules.
func walk(s *jsonschema.Schema, v any, path string, visit func(string, map[string]any, map[string]bool, map[string]*jsonschema.Schema)) {
	schemas := applicable(s, v)
	switch v := v.(type) {
	case map[string]any:
		required := map[string]bool{}
		props := map[string]*jsonschema.Schema{}
		for _, a := range schemas {
			for _, r := range a.Required {
				required[r] = true
			}
			for k, p := range a.Properties {
				props[k] = p
			}
		}
		visit(path, v, required, props)
		for k, p := range props {
			if child, ok := v[k]; ok && !lenient(p) {
				walk(p, child, path+"."+k, visit)
			}
		}
	case []any:
		for _, a := range schemas {
			if a.Items2020 != nil {
				for _, e := range v {
					walk(a.Items2020, e, path+"[]", visit)
				}
			}
		}
	}
}

func lenient(s *jsonschema.Schema) bool {
	a := load.Annotate(s)
	return a.DefaultOnError || a.SkipInvalidItems
}

// applicable lists s and the schemas it applies to v through $ref, allOf,
// and the anyOf/oneOf branches that v satisfies.
func applicable(s *jsonschema.Schema, v any) []*jsonschema.Schema {
	out := []*jsonschema.Schema{s}
	if s.Ref != nil {
		out = append(out, applicable(s.Ref, v)...)
	}
	for _, a := range s.AllOf {
		out = append(out, applicable(a, v)...)
	}
	for _, group := range [][]*jsonschema.Schema{s.AnyOf, s.OneOf} {
		for _, b := range group {
			if b.Validate(v) == nil {
				out = append(out, applicable(b, v)...)
			}
		}
	}
	return out
}
