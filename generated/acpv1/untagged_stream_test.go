package acpv1

import (
	"fmt"
	"testing"
)

// An untagged union whose only object alternative is decoded in the same
// pass as the enclosing value must give what its UnmarshalJSON gives on the
// value's bytes, and leave the decoder after the value when it fails.
func TestUntaggedInPlace(t *testing.T) {
	for _, in := range []string{
		`{"hint":"query"}`,
		`{"hint":"a\nb \u00e9"}`,
		`{"other":true,"hint":"q","nested":{"hint":[1,{"x":2}]}}`,
		`{}`,
		`{"hint":1}`,
		`{"hint":null}`,
		`{"nested":{"hint":"q"}}`,
		`null`,
		`"query"`,
		`[{"hint":"q"}]`,
		`7`,
	} {
		var want AvailableCommandInput
		wantErr := want.UnmarshalJSON([]byte(in))

		var got AvailableCommandInput
		gotErr := decodeWith([]byte(in), &got, (*AvailableCommandInput).decodeJSON)
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
			t.Errorf("%s: in place: error %v, UnmarshalJSON: %v", in, gotErr, wantErr)
		}
		if fmt.Sprintf("%#v", got.Value) != fmt.Sprintf("%#v", want.Value) {
			t.Errorf("%s: in place: %#v, UnmarshalJSON: %#v", in, got.Value, want.Value)
		}

		// Inside a command, a member after the input is still read, and
		// an input that does not fit is dropped, as its rules say.
		var c AvailableCommand
		err := c.UnmarshalJSON([]byte(`{"input":` + in + `,"name":"web","description":"Search"}`))
		switch {
		case err != nil:
			t.Errorf("%s: in a command: %v", in, err)
		case c.Name != "web" || c.Description != "Search":
			t.Errorf("%s: in a command: name %q, description %q", in, c.Name, c.Description)
		case (c.Input != nil) != (wantErr == nil && in != "null"):
			t.Errorf("%s: in a command: input %#v, UnmarshalJSON error %v", in, c.Input, wantErr)
		case c.Input != nil && fmt.Sprintf("%#v", c.Input.Value) != fmt.Sprintf("%#v", want.Value):
			t.Errorf("%s: in a command: %#v, UnmarshalJSON: %#v", in, c.Input.Value, want.Value)
		}
	}
}

// Malformed JSON inside the object is an error in place too, not a value
// that fits none of the alternatives.
func TestUntaggedInPlaceMalformed(t *testing.T) {
	var c AvailableCommand
	err := c.UnmarshalJSON([]byte(`{"name":"web","description":"Search","input":{"hint":"q",}}`))
	if err == nil || isTypeError(err) {
		t.Fatalf("error %v, want a syntax error", err)
	}
}
