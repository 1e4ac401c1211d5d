package jsontest

import (
	"encoding/json"
	"testing"
)

// RoundTrip is a JSON input and what decoding it and encoding it again
// must give.
type RoundTrip struct{ In, Out string }

// AssertRoundTrips decodes the input of each case into a new T and checks
// that T's MarshalJSON writes the case's output.
func AssertRoundTrips[T any, PT interface {
	*T
	json.Marshaler
}](t testing.TB, cases ...RoundTrip) {
	t.Helper()
	for _, c := range cases {
		v := PT(new(T))
		if err := json.Unmarshal([]byte(c.In), v); err != nil {
			t.Errorf("%s: %v", c.In, err)
			continue
		}
		if out, err := v.MarshalJSON(); err != nil || string(out) != c.Out {
			t.Errorf("%s:\n got %s, %v\nwant %s", c.In, out, err, c.Out)
		}
	}
}

// AssertDecodesAlike checks that each input decodes into a bare T as it
// does as a member of a struct, which member decodes and returns: both
// fail, or both give the same value.
func AssertDecodesAlike[T comparable](t testing.TB, member func(data string) (T, error), inputs ...string) {
	t.Helper()
	for _, in := range inputs {
		var got T
		err := json.Unmarshal([]byte(in), &got)
		want, wantErr := member(in)
		if (err == nil) != (wantErr == nil) || err == nil && got != want {
			t.Errorf("%T %s: bare %v, %v; member %v, %v", got, in, got, err, want, wantErr)
		}
	}
}

// AssertDecodes checks that each input decodes into a bare T, or fails to,
// as ok says.
func AssertDecodes[T any](t testing.TB, ok func(in string) bool, inputs ...string) {
	t.Helper()
	for _, in := range inputs {
		var v T
		if err := json.Unmarshal([]byte(in), &v); (err == nil) != ok(in) {
			t.Errorf("%T %s: %v, %v", v, in, v, err)
		}
	}
}

// AssertEncodes checks that each value's MarshalJSON writes its JSON.
func AssertEncodes(t testing.TB, values map[json.Marshaler]string) {
	t.Helper()
	for v, want := range values {
		if got, err := v.MarshalJSON(); err != nil || string(got) != want {
			t.Errorf("%#v: %s, %v, want %s", v, got, err, want)
		}
	}
}

// Member decodes prefix, data and suffix, joined, into a new S and returns
// what field reads of it: the value of data as a member of S.
func Member[S, T any](prefix, suffix string, field func(*S) T) func(data string) (T, error) {
	return func(data string) (T, error) {
		var s S
		err := json.Unmarshal([]byte(prefix+data+suffix), &s)
		return field(&s), err
	}
}
