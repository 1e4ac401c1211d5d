package jsontest

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// AssertTypeError checks that err is a *json.UnmarshalTypeError whose path
// holds the members of field in order, starting with the first, which the
// message mentions, and whose message holds msg when it is set.
func AssertTypeError(t *testing.T, err error, field []string, msg string) {
	t.Helper()
	if err == nil {
		t.Fatal("decoded without error")
	}
	var ute *json.UnmarshalTypeError
	if !errors.As(err, &ute) {
		t.Fatalf("error %T (%v) is not a *json.UnmarshalTypeError", err, err)
	}
	rest := ute.Field
	for _, f := range field {
		i := strings.Index(rest, f)
		if i < 0 {
			t.Errorf("error path %q lacks %q (in order %q): %v", ute.Field, f, field, err)
			break
		}
		rest = rest[i+len(f):]
	}
	if len(field) > 0 && !strings.HasPrefix(ute.Field, field[0]) {
		t.Errorf("error path %q does not start with %q", ute.Field, field[0])
	}
	if len(field) > 0 && !strings.Contains(err.Error(), field[0]) {
		t.Errorf("message %q does not mention %q", err, field[0])
	}
	if msg != "" && !strings.Contains(err.Error(), msg) {
		t.Errorf("message %q does not mention %q", err, msg)
	}
}

// OpenEnum is a generated enum that keeps values it does not know.
type OpenEnum interface {
	IsKnown() bool
	IsCustom() bool
}

// DecodeEnum decodes b as the open enum T.
func DecodeEnum[T OpenEnum](b []byte) (OpenEnum, error) {
	var v T
	err := json.Unmarshal(b, &v)
	return v, err
}

// DecodeAny decodes b as a T.
func DecodeAny[T any](b []byte) (any, error) {
	var v T
	err := json.Unmarshal(b, &v)
	return v, err
}

// OpenEnumCase is an open enum (Decode is DecodeEnum of it), one of its
// values and others it does not know, custom ones beginning with "_".
type OpenEnumCase struct {
	Name   string
	Decode func([]byte) (OpenEnum, error)
	Known  string
	Other  []string
}

// RunOpenEnums checks that each enum decodes its known value and the
// others, tells them apart (IsKnown, IsCustom), writes each back as it
// came, and rejects a number.
func RunOpenEnums(t *testing.T, cases []OpenEnumCase) {
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			for _, s := range append([]string{tc.Known}, tc.Other...) {
				in := `"` + s + `"`
				v, err := tc.Decode([]byte(in))
				if err != nil {
					t.Fatalf("decode %s: %v", in, err)
				}
				known, custom := s == tc.Known, strings.HasPrefix(s, "_")
				if v.IsKnown() != known || v.IsCustom() != custom {
					t.Errorf("%s: IsKnown %v IsCustom %v, want %v %v", in, v.IsKnown(), v.IsCustom(), known, custom)
				}
				if out := Marshal(t, v); string(out) != in {
					t.Errorf("re-encoded %s, want %s", out, in)
				}
			}
			_, err := tc.Decode([]byte(`7`))
			AssertTypeError(t, err, nil, "")
		})
	}
}
