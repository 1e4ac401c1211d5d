package jsontest

import (
	"fmt"
	"reflect"
	"testing"
)

// TaggedUnion names a tagged union of the schema for RunKnownTags: Params,
// when set, is a definition whose JSON Enclose holds the union (%s) at the
// Go path At.
type TaggedUnion struct {
	Name    string
	TagKey  string
	Params  string
	Enclose string
	At      string
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
