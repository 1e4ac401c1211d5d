package pipeline

import (
	"encoding/json"
	"io/fs"
	"sort"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/acpgen/acpgen/gen/diag"
	"github.com/acpgen/acpgen/schema"
)

// FuzzSchema generates from small mutations of the pinned v1 schema: one
// change (rename a definition, add a property or keyword, duplicate a union
// branch, …) to the definition root, after which the schema is cut down to
// the definitions root reaches, with the same cut of the pinned unstable
// file beside it. Generation never panics, a failure is a located schema
// error and never one of the emitter, and a success type-checks with no
// build tags and with -tags unstable. The seeds are the changes of
// testdata/hostile made to the real schema; `go test` runs them.
func FuzzSchema(f *testing.F) {
	m := newMutator(f)
	for _, s := range m.seeds(f) {
		f.Add(s.root, s.op, s.arg, s.s)
	}
	f.Fuzz(func(t *testing.T, root uint16, op uint8, arg uint16, s string) {
		out, err := generateSafely(hostileCase{fsys: m.mutate(t, root, op, arg, s)})
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
		for _, tags := range []string{"", "unstable"} {
			typeCheck(t, out.Files, tags)
		}
	})
}

// mutator makes the schemas of FuzzSchema from the pinned v1 files.
type mutator struct {
	stable, unstable []byte // their $defs
}

func newMutator(t testing.TB) *mutator {
	return &mutator{pinnedDefs(t, "v1/schema.json"), pinnedDefs(t, "v1/schema.unstable.json")}
}

// seed is one input of FuzzSchema.
type seed struct {
	root uint16
	op   uint8
	arg  uint16
	s    string
}

// seeds are the changes of testdata/hostile made to the real schema.
func (m *mutator) seeds(t testing.TB) []seed {
	names := sortedNames(clone(t, m.stable))
	index := func(name string) uint16 {
		i := sort.SearchStrings(names, name)
		if i == len(names) || names[i] != name {
			t.Fatalf("the pinned schema has no %s", name)
		}
		return uint16(i)
	}
	text, annotations, block := index("TextContent"), index("Annotations"), index("ContentBlock")
	return []seed{
		{text, opNone, 0, ""},
		{text, opCopyDef, text, "Message"},
		{text, opCopyDef, text, "Nullable"},
		{text, opCopyDef, text, "NewRequestParams"},
		{text, opRename, 0, "DecodeMessage"},
		{text, opAddProperty, text, "marshalJSON"},
		{text, opAddProperty, text, ""},
		{annotations, opAddRequired, text, "loop"},
		{text, opAddKeyword, 0, "patternProperties"},
		{text, opAddKeyword, 0, "$ref"},
		{block, opDeleteDef, text, ""},
		{block, opDuplicateBranch, 0, ""},
		{block, opNumericTag, 0, ""},
		{text, opDescribe, 0, "NUL \x00 and BOM \ufeff"},
	}
}

// mutate returns the schema directory of one input: the change made to the
// definition root, then the schema cut down to what root reaches, with the
// same cut of the unstable file beside it.
func (m *mutator) mutate(t testing.TB, root uint16, op uint8, arg uint16, s string) fstest.MapFS {
	defs := clone(t, m.stable)
	names := sortedNames(defs)
	r, a := names[int(root)%len(names)], names[int(arg)%len(names)]
	r = apply(defs, op, r, a, s)
	fsys := fstest.MapFS{"v1/schema.json": {Data: cut(t, defs, r)}}
	if u := clone(t, m.unstable); u[r] != nil {
		fsys["v1/schema.unstable.json"] = &fstest.MapFile{Data: cut(t, u, r)}
	}
	return fsys
}

// The changes FuzzSchema makes.
const (
	opNone            = iota
	opRename          // root is renamed s, and references to it follow
	opCopyDef         // a definition s is added, a copy of arg
	opAddProperty     // root gets an optional property s of type arg
	opAddRequired     // root gets a required property s of type arg, and arg one of type root
	opAddKeyword      // root gets the keyword s, with an empty schema
	opDeleteDef       // arg is deleted; references to it dangle
	opDuplicateBranch // root's first union branch is there twice
	opNumericTag      // root's first branch has a number as its tag
	opDescribe        // root's description is s
	opCount
)

func apply(defs map[string]any, op uint8, root, arg, s string) string {
	def, _ := defs[root].(map[string]any)
	props, _ := def["properties"].(map[string]any)
	switch op % opCount {
	case opRename:
		if s == "" || defs[s] != nil {
			return root
		}
		defs[s] = defs[root]
		delete(defs, root)
		retarget(defs, "#/$defs/"+root, "#/$defs/"+s)
		return s
	case opCopyDef:
		if s != "" && defs[s] == nil {
			defs[s] = defs[arg]
			if props != nil {
				props["copy"] = map[string]any{"$ref": "#/$defs/" + s}
			}
		}
	case opAddProperty:
		if props != nil {
			props[s] = map[string]any{"$ref": "#/$defs/" + arg}
		}
	case opAddRequired:
		other, _ := defs[arg].(map[string]any)
		otherProps, _ := other["properties"].(map[string]any)
		if props != nil && otherProps != nil {
			props[s] = map[string]any{"$ref": "#/$defs/" + arg}
			otherProps[s] = map[string]any{"$ref": "#/$defs/" + root}
			def["required"] = append(asList(def["required"]), s)
			other["required"] = append(asList(other["required"]), s)
		}
	case opAddKeyword:
		if def != nil {
			def[s] = map[string]any{}
		}
	case opDeleteDef:
		if arg != root {
			delete(defs, arg)
		}
	case opDuplicateBranch:
		for _, k := range []string{"oneOf", "anyOf"} {
			if bs := asList(def[k]); len(bs) > 0 {
				def[k] = append(bs, bs[0])
			}
		}
	case opNumericTag:
		if d, ok := def["discriminator"].(map[string]any); ok {
			tag, _ := d["propertyName"].(string)
			for _, k := range []string{"oneOf", "anyOf"} {
				if bs := asList(def[k]); len(bs) > 0 {
					if b, ok := bs[0].(map[string]any); ok {
						if p, ok := b["properties"].(map[string]any); ok {
							p[tag] = map[string]any{"type": "integer", "const": 1}
						}
					}
				}
			}
		}
	case opDescribe:
		if def != nil {
			def["description"] = s
		}
	}
	return root
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

// retarget replaces every $ref from with to.
func retarget(v any, from, to string) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if k == "$ref" && e == from {
				x[k] = to
				continue
			}
			retarget(e, from, to)
		}
	case []any:
		for _, e := range x {
			retarget(e, from, to)
		}
	}
}

// cut returns the schema document with the definitions root reaches.
func cut(t testing.TB, defs map[string]any, root string) []byte {
	keep := map[string]any{}
	var reach func(v any)
	reach = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				if ref, ok := e.(string); ok && k == "$ref" && strings.HasPrefix(ref, "#/$defs/") {
					name := strings.TrimPrefix(ref, "#/$defs/")
					if d, ok := defs[name]; ok && keep[name] == nil {
						keep[name] = d
						reach(d)
					}
					continue
				}
				reach(e)
			}
		case []any:
			for _, e := range x {
				reach(e)
			}
		}
	}
	if d, ok := defs[root]; ok {
		keep[root] = d
		reach(d)
	}
	out, err := json.Marshal(map[string]any{"$defs": keep})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// pinnedDefs returns the $defs of a pinned schema file, as JSON.
func pinnedDefs(t testing.TB, name string) []byte {
	data, err := fs.ReadFile(schema.FS, name)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Defs json.RawMessage `json:"$defs"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Defs
}

// clone decodes defs afresh for each run, so that a change does not reach the next.
func clone(t testing.TB, defs []byte) map[string]any {
	var out map[string]any
	if err := json.Unmarshal(defs, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func sortedNames(defs map[string]any) []string {
	names := make([]string, 0, len(defs))
	for k := range defs {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}
