package jsontest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
)

// FallbackView is what a test sees of the XxxOther variant of a tagged
// union, which keeps a variant of a tag the union does not know.
type FallbackView struct {
	UnionTag string // Tag() of the union
	Tag      string // Tag field of the variant
	Custom   bool   // IsCustom()
	Raw      json.RawMessage
	Variant  any // the *XxxOther itself
}

// FallbackUnion is a tagged union whose unknown variants RunUnknownTags
// checks, alone and inside session/update params.
type FallbackUnion struct {
	// Name is the union's schema name.
	Name   string
	TagKey string
	// Enclose is session/update params around the union's JSON (%s), with
	// keys in the order the encoder writes them.
	Enclose string
	// At is the Go path of the union in the decoded params (see Follow).
	At string
	// Input, if set, returns the unknown object of tag; otherwise it is
	// UnknownObject(TagKey, tag).
	Input func(tag string) string
	// Want, if set, is the shape of the fallback variant (see Fields).
	Want any
	// Bare, if set, is the encoding of the fallback variant of a tag (%s)
	// without Raw; otherwise it is an object of the tag alone.
	Bare string
}

// RunUnknownTags decodes objects of unknown tags, custom ("_…") and not,
// into each union and into the params, of the definition params: the
// fallback variant keeps the tag and the object byte for byte in a copy of
// its own, and the union, the variant and the params encode as received.
func RunUnknownTags(t *testing.T, defs Definitions, params string, unions []FallbackUnion) {
	tags := []struct {
		tag    string
		custom bool
	}{
		{"_custom", true},
		{"future_kind", false},
		{"_", true},
		{"future_", false},
	}
	for _, u := range unions {
		for _, tc := range tags {
			t.Run(u.Name+"/"+tc.tag, func(t *testing.T) {
				input := UnknownObject(u.TagKey, tc.tag)
				if u.Input != nil {
					input = u.Input(tc.tag)
				}
				in := []byte(input)
				union := decodeDef(t, defs, u.Name, in)
				v := OtherView(t, union)
				if u.Want != nil {
					AssertShape(t, v.Variant, u.Want)
				}
				if v.UnionTag != tc.tag || v.Tag != tc.tag {
					t.Errorf("Tag() = %q, variant Tag = %q, want %q", v.UnionTag, v.Tag, tc.tag)
				}
				if v.Custom != tc.custom {
					t.Errorf("IsCustom() = %v, want %v", v.Custom, tc.custom)
				}
				if !bytes.Equal(v.Raw, in) {
					t.Errorf("Raw = %s\nwant %s", v.Raw, in)
				}

				// The union, a pointer to it and the bare variant all encode as received.
				for _, x := range []any{union, reflect.ValueOf(union).Elem().Interface(), v.Variant} {
					if out := Marshal(t, x); !bytes.Equal(out, in) {
						t.Errorf("json.Marshal(%T) = %s\nwant %s", x, out, in)
					}
				}

				// Raw is a copy: reusing the input buffer does not change it.
				saved := append([]byte(nil), in...)
				for i := range in {
					in[i] = ' '
				}
				if !bytes.Equal(v.Raw, saved) {
					t.Errorf("Raw aliases the input buffer: %s", v.Raw)
				}
				in = saved

				p := []byte(fmt.Sprintf(u.Enclose, in))
				n := decodeDef(t, defs, params, p)
				iv := OtherView(t, Follow(t, n, u.At).Interface())
				if u.Want != nil {
					AssertShape(t, iv.Variant, u.Want)
				}
				if iv.Tag != tc.tag || iv.Custom != tc.custom || !bytes.Equal(iv.Raw, in) {
					t.Errorf("in params: tag %q custom %v Raw %s; want %q %v %s", iv.Tag, iv.Custom, iv.Raw, tc.tag, tc.custom, in)
				}
				for _, x := range []any{reflect.ValueOf(n).Elem().Interface(), n} {
					out := Marshal(t, x)
					if !bytes.Equal(out, p) {
						t.Errorf("json.Marshal(%T) = %s\nwant %s", x, out, p)
					}
					AssertBigNumber(t, out)
				}
			})
		}
	}
}

// decodeDef decodes data into a new value of the Go type of def and returns
// the pointer to it, failing the test on error.
func decodeDef(t testing.TB, defs Definitions, def string, data []byte) any {
	t.Helper()
	v := newDef(t, defs, def)
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("decode %s as %s: %v", data, def, err)
	}
	return v
}

// newDef returns a pointer to a new value of the Go type of def.
func newDef(t testing.TB, defs Definitions, def string) any {
	t.Helper()
	newValue, ok := defs[def]
	if !ok {
		t.Fatalf("no definition %s", def)
	}
	return newValue()
}

// RunFallbackWithoutRaw checks each union's fallback variant built without
// Raw, as a program would: it encodes its tag (and the members the union
// requires, Bare) alone. An empty union has no tag and does not encode.
func RunFallbackWithoutRaw(t *testing.T, defs Definitions, unions []FallbackUnion) {
	for _, u := range unions {
		t.Run(u.Name, func(t *testing.T) {
			for _, tag := range []string{"_x", "future"} {
				input := UnknownObject(u.TagKey, tag)
				if u.Input != nil {
					input = u.Input(tag)
				}
				union := decodeDef(t, defs, u.Name, []byte(input))
				v := OtherView(t, union)
				reflect.ValueOf(v.Variant).Elem().FieldByName("Raw").SetBytes(nil)
				want := `{"` + u.TagKey + `":"` + tag + `"}`
				if u.Bare != "" {
					want = fmt.Sprintf(u.Bare, tag)
				}
				if out := Marshal(t, reflect.ValueOf(union).Elem().Interface()); string(out) != want {
					t.Errorf("json.Marshal(%T) = %s, want %s", union, out, want)
				}
			}
			empty := reflect.ValueOf(newDef(t, defs, u.Name)).Elem().Interface()
			if _, err := json.Marshal(empty); err == nil {
				t.Errorf("json.Marshal(%T{}) with nil Value succeeded, want error", empty)
			}
			if tag := call(t, reflect.ValueOf(empty), "Tag"); tag != "" {
				t.Errorf("Tag() of empty union = %q, want empty", tag)
			}
		})
	}
}
