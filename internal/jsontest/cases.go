package jsontest

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// Case is one input for a decoded Go type T, as the tests of the decoding
// rules write them (x-deserialize-* keywords, required members, type
// errors, enums, Nullable fields, validation keywords).
type Case[T any] struct {
	Name string
	In   string

	// Want is the decoded value, compared with reflect.DeepEqual, unless
	// Check is set, which then inspects the decoded value instead.
	Want  T
	Check func(t *testing.T, got *T)

	// Err, when set, is a part of the message of the error decoding must
	// return; Field, when set, is the Field of that *json.UnmarshalTypeError.
	Err   string
	Field string

	// Valid marks an input that no rule changes: re-encoding the decoded
	// value must give back JSON equal to In. Enc, when set, is the JSON that
	// re-encoding a value changed by a rule must give.
	Valid bool
	Enc   string
}

// RunCases decodes each case's input into a T with json.Unmarshal, in a
// subtest of its name, and checks the value or the error, then the
// encoding.
func RunCases[T any](t *testing.T, cases []Case[T]) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			var got T
			err := json.Unmarshal([]byte(c.In), &got)
			if c.Err != "" || c.Field != "" {
				assertCaseError(t, c, got, err)
				return
			}
			if err != nil {
				t.Fatalf("decode %s\n got error %q, want none", c.In, err)
			}
			if c.Check != nil {
				c.Check(t, &got)
			} else if !reflect.DeepEqual(got, c.Want) {
				t.Errorf("decode %s\n got  %s\n want %s", c.In, Show(got), Show(c.Want))
			}
			checkEncoding(t, c.In, got, c.Enc, c.Valid, false)
		})
	}
}

// assertCaseError checks the error of a case that must not decode.
func assertCaseError[T any](t *testing.T, c Case[T], got T, err error) {
	t.Helper()
	if err == nil {
		t.Fatalf("decode %s\n got value %s, want an error containing %q", c.In, Show(got), c.Err)
	}
	if !strings.Contains(err.Error(), c.Err) {
		t.Errorf("decode %s\n got error %q, want one containing %q", c.In, err, c.Err)
	}
	if c.Field != "" {
		var te *json.UnmarshalTypeError
		if !errors.As(err, &te) {
			t.Errorf("decode %s\n got error %T (%v), want *json.UnmarshalTypeError", c.In, err, err)
		} else if te.Field != c.Field {
			t.Errorf("decode %s\n got error Field %q, want %q (error %q)", c.In, te.Field, c.Field, err)
		}
	}
}

// checkEncoding checks that got, decoded from in, encodes as enc, or as in
// when valid (nothing to check when neither is set): as the same JSON, or
// byte for byte when exact.
func checkEncoding(t *testing.T, in string, got any, enc string, valid, exact bool) {
	t.Helper()
	if valid {
		enc = in
	}
	if enc == "" {
		return
	}
	b, err := json.Marshal(got)
	if err != nil {
		t.Fatalf("decode %s\n re-encoding %s fails: %v", in, Show(got), err)
	}
	if exact && string(b) != enc || !Same(b, []byte(enc)) {
		t.Errorf("decode %s\n re-encoded as %s\n want         %s", in, b, enc)
	}
}

// Show prints v as Go syntax and, when it encodes, as JSON.
func Show(v any) string {
	s := fmt.Sprintf("%#v", v)
	if b, err := json.Marshal(v); err == nil {
		s += " = " + string(b)
	} else {
		s += " (does not encode: " + err.Error() + ")"
	}
	return s
}

// AssertEmpty checks that a list that a rule made empty holds nothing.
func AssertEmpty[E any](t *testing.T, what string, s []E) {
	t.Helper()
	if len(s) != 0 {
		t.Errorf("%s = %s, want it empty", what, Show(s))
	}
}
