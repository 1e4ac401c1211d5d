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
// checks, alone and inside session/update params of type N.
type FallbackUnion[N any] struct {
	Name   string
	TagKey string
	// Decode decodes data into the union, which must hold its fallback
	// variant.
	Decode func(t *testing.T, data []byte) (union any, v FallbackView)
	// Enclose is session/update params around the union's JSON (%s), with
	// keys in the order the encoder writes them.
	Enclose string
	// Inner returns the fallback variant found in the decoded params.
	Inner func(t *testing.T, n *N) FallbackView
	// Input, if set, returns the unknown object of tag; otherwise it is
	// UnknownObject(TagKey, tag).
	Input func(tag string) string
}

// RunUnknownTags decodes objects of unknown tags, custom ("_…") and not,
// into each union and its params: the fallback variant keeps the tag and
// the object byte for byte in a copy of its own, and the union, the
// variant and the params encode as received.
func RunUnknownTags[N any](t *testing.T, unions []FallbackUnion[N]) {
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
				union, v := u.Decode(t, in)
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

				params := []byte(fmt.Sprintf(u.Enclose, in))
				n := new(N)
				if err := json.Unmarshal(params, n); err != nil {
					t.Fatalf("decode params: %v", err)
				}
				iv := u.Inner(t, n)
				if iv.Tag != tc.tag || iv.Custom != tc.custom || !bytes.Equal(iv.Raw, in) {
					t.Errorf("in params: tag %q custom %v Raw %s; want %q %v %s", iv.Tag, iv.Custom, iv.Raw, tc.tag, tc.custom, in)
				}
				for _, x := range []any{*n, n} {
					out := Marshal(t, x)
					if !bytes.Equal(out, params) {
						t.Errorf("json.Marshal(%T) = %s\nwant %s", x, out, params)
					}
					AssertBigNumber(t, out)
				}
			})
		}
	}
}
