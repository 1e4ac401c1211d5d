package jsontest

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// TaggedUnion names a tagged union of the schema (Name, a definition, and
// the member that holds its tag) for the tests below: Params, when set, is
// a definition whose JSON Enclose holds the union (%s) at the Go path At
// (see Follow).
type TaggedUnion struct {
	Name    string
	TagKey  string
	Params  string
	Enclose string
	At      string
	// Dropped marks params that drop an item of the union that fails to
	// decode (see RunUnionErrors).
	Dropped bool
}

// TagCase is an object of a known tag: Want is the shape of the variant
// (see Is).
type TagCase struct {
	Name string
	In   string
	Want any
}

// RunKnownTags decodes each case into the union u, in a subtest of its name
// (or input): the variant has the case's shape, Tag() is the object's tag,
// and the union and the variant encode as received; then the same inside
// u.Params, when set.
func RunKnownTags(t *testing.T, defs Definitions, u TaggedUnion, cases []TagCase) {
	t.Helper()
	for _, tc := range cases {
		name := tc.Name
		if name == "" {
			name = tc.In
		}
		t.Run(name, func(t *testing.T) {
			union := decodeDef(t, defs, u.Name, []byte(tc.In))
			AssertShape(t, union, Some{"Value": tc.Want})
			want := MustValue(t, []byte(tc.In)).(map[string]any)[u.TagKey]
			if tag := call(t, reflect.ValueOf(union), "Tag"); tag != want {
				t.Errorf("Tag() = %q, want %q", tag, want)
			}
			AssertSame(t, Marshal(t, union), []byte(tc.In))
			AssertSame(t, Marshal(t, Follow(t, union, "Value").Interface()), []byte(tc.In))
			if u.Params == "" {
				return
			}
			params := []byte(fmt.Sprintf(u.Enclose, tc.In))
			n := decodeDef(t, defs, u.Params, params)
			AssertShape(t, Follow(t, n, u.At).Addr().Interface(), Some{"Value": tc.Want})
			AssertSame(t, Marshal(t, n), params)
		})
	}
}

// ErrorCase is JSON that must not decode into a union: Field lists parts
// the error's JSON path must hold, in order, when the union is decoded
// inside its params; Msg, when set, is part of the message.
type ErrorCase struct {
	Name  string
	In    string
	Field []string
	Msg   string
}

// RunUnionErrors decodes each case into the union u, alone and inside
// u.Params: both fail with a *json.UnmarshalTypeError (see AssertTypeError)
// and neither decodes into the fallback variant (as far as the params reach
// u.At). When u.Dropped is set, the params hold the union in a list that
// drops items that fail to decode (x-deserialize-skip-invalid-items):
// Enclose puts a valid item after the case's, the params decode and the
// list at u.At holds that one.
func RunUnionErrors(t *testing.T, defs Definitions, u TaggedUnion, cases []ErrorCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			params := []byte(fmt.Sprintf(u.Enclose, tc.In))
			n := newDef(t, defs, u.Params)
			err := json.Unmarshal(params, n)
			if u.Dropped {
				if err != nil {
					t.Fatalf("an invalid item failed the whole %s: %v", u.Params, err)
				}
				if items := Follow(t, n, u.At); items.Len() != 1 {
					t.Errorf("%s has %d items, want the valid one only", u.At, items.Len())
				}
			} else {
				AssertTypeError(t, err, tc.Field, tc.Msg)
				if union, err := follow(n, u.At); err == nil {
					assertNotOther(t, union)
				}
			}

			union := newDef(t, defs, u.Name)
			err = json.Unmarshal([]byte(tc.In), union)
			AssertTypeError(t, err, nil, tc.Msg)
			assertNotOther(t, reflect.ValueOf(union))
		})
	}
}

// assertNotOther fails the test when the union v holds its fallback
// variant.
func assertNotOther(t testing.TB, v reflect.Value) {
	t.Helper()
	value := indirect(v).FieldByName("Value")
	if value.IsValid() && !value.IsNil() && strings.HasSuffix(indirectName(value.Elem().Type()), "Other") {
		t.Errorf("decoded into the fallback variant: %s", Marshal(t, value.Interface()))
	}
}

// UntaggedDefCase is one JSON value for the untagged union of a schema
// definition: Want is the shape of the decoded union (see Is), or nil when
// decoding must fail; Msg is a substring of the error.
type UntaggedDefCase struct {
	In   string
	Want any
	Msg  string
	// Enc, when set, is the encoding of the decoded value, when it differs
	// from In.
	Enc string
}

// RunUntaggedDef decodes each case into the untagged union def, looked up
// in defs, alone and as a struct field: it has the case's shape and
// encodes back to the input (or Enc), or it fails to decode.
func RunUntaggedDef(t *testing.T, defs Definitions, def string, cases []UntaggedDefCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.In, func(t *testing.T) {
			u := newDef(t, defs, def)
			err := json.Unmarshal([]byte(tc.In), u)
			if tc.Want == nil {
				AssertTypeError(t, err, nil, tc.Msg)
				return
			}
			if err != nil {
				t.Fatalf("decode: %v", err)
			}
			AssertShape(t, u, tc.Want)
			enc := tc.In
			if tc.Enc != "" {
				enc = tc.Enc
			}
			if out := Marshal(t, u); string(out) != enc {
				t.Errorf("re-encoded %s, want %s", out, enc)
			}
			// And as a struct field.
			field := reflect.New(reflect.StructOf([]reflect.StructField{{
				Name: "V", Type: reflect.TypeOf(u).Elem(), Tag: `json:"v"`,
			}}))
			in := `{"v":` + tc.In + `}`
			if err := json.Unmarshal([]byte(in), field.Interface()); err != nil {
				t.Fatalf("decode as field: %v", err)
			}
			AssertShape(t, field.Elem().Field(0).Addr().Interface(), tc.Want)
			if out := Marshal(t, field.Interface()); string(out) != `{"v":`+enc+`}` {
				t.Errorf("re-encoded as field %s, want %s", out, `{"v":`+enc+`}`)
			}
		})
	}
}

// TagType is a tag of a union and the name of its variant's type.
type TagType struct {
	Tag  string
	Type string
}

// RunSharedPayload checks the variants of the union u that share one
// payload type: the object of each tag, with the members (JSON after the
// tag), decodes to the tag's own variant type and encodes as received, and
// a variant of each built around the payload decoded first encodes with its
// own tag.
func RunSharedPayload(t *testing.T, defs Definitions, u TaggedUnion, members string, variants []TagType) {
	var payload reflect.Value
	for _, v := range variants {
		t.Run(v.Tag, func(t *testing.T) {
			in := `{"` + u.TagKey + `":"` + v.Tag + `",` + members + `}`
			union := decodeDef(t, defs, u.Name, []byte(in))
			AssertShape(t, union, Is(v.Type, nil))
			if tag := call(t, reflect.ValueOf(union), "Tag"); tag != v.Tag {
				t.Errorf("Tag() = %q", tag)
			}
			if out := Marshal(t, union); string(out) != in {
				t.Errorf("re-encoded %s, want %s", out, in)
			}

			variant := Follow(t, union, "Value").Elem()
			if !payload.IsValid() {
				payload = variant.Elem().Field(0)
			}
			built := reflect.New(variant.Type().Elem())
			built.Elem().Field(0).Set(payload)
			union = newDef(t, defs, u.Name)
			reflect.ValueOf(union).Elem().FieldByName("Value").Set(built)
			if tag := call(t, reflect.ValueOf(union), "Tag"); tag != v.Tag {
				t.Errorf("built Tag() = %q", tag)
			}
			if out := Marshal(t, union); string(out) != in {
				t.Errorf("built encodes as %s, want %s", out, in)
			}
		})
	}
}
