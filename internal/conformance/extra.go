package conformance

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
)

// extraMember is the member RunExtraMembers adds: a name no definition has,
// with a value whose number and spacing only a byte-exact copy keeps.
const extraMember = `"zExtra":{"n":1.50,"list":[1e2,"\u00e9"]}`

// RunExtraMembers adds a member the schema allows without naming it to
// the params, result or error of every corpus message whose Go type is a
// struct (the pinned schemas forbid no such member), and checks that the
// typed value writes it back after the named members, byte for byte, and
// that the rest of the value is unchanged. At least min messages must be
// checked.
func RunExtraMembers(t *testing.T, p Package, min int) {
	s := LoadSchema(t, p.File)
	checked := 0
	for _, m := range Messages(t, p.Version) {
		if m.Draft && !p.Drafts {
			continue
		}
		def := s.Def(m)
		v := p.New(m)
		if def == "" || v == nil || s.Validate(def, m.Params) != nil {
			continue
		}
		typ := reflect.TypeOf(v)
		if typ.Kind() != reflect.Pointer || typ.Elem().Kind() != reflect.Struct || isUnion(typ.Elem()) {
			continue
		}
		in := compact(m.Params)
		if len(in) < 2 || in[0] != '{' {
			continue
		}
		with := withMember(in, extraMember)
		t.Run(m.Name, func(t *testing.T) {
			if err := json.Unmarshal(with, v); err != nil {
				t.Fatalf("decode %s with an extra member: %v\n%s", def, err, with)
			}
			out, err := json.Marshal(v)
			if err != nil {
				t.Fatalf("encode %s: %v", def, err)
			}
			if !bytes.HasSuffix(out, []byte(","+extraMember+"}")) && !bytes.Equal(out, []byte("{"+extraMember+"}")) {
				t.Errorf("%s does not end with the extra member:\n in: %s\nout: %s", def, with, out)
			}
			if ok, diff := Equal(with, out); !ok {
				t.Errorf("round trip of %s changed the value: %s\n in: %s\nout: %s", def, diff, with, out)
			}
		})
		checked++
	}
	t.Logf("checked %d messages", checked)
	if checked < min {
		t.Errorf("checked %d messages, want at least %d", checked, min)
	}
}

// withMember returns the compact object obj with member added first.
func withMember(obj []byte, member string) []byte {
	if len(obj) == 2 {
		return []byte("{" + member + "}")
	}
	return append([]byte("{"+member+","), obj[1:]...)
}

// isUnion reports whether a struct type is a union: its variant is in Value.
func isUnion(t reflect.Type) bool {
	f, ok := t.FieldByName("Value")
	return ok && f.Type.Kind() == reflect.Interface
}
