// Package jsontest holds the JSON helpers that the tests of the generated
// packages share: decoding to a generic value with numbers kept as written,
// strict comparison, and inputs that carry numbers a float64 cannot hold.
package jsontest

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"testing"
)

// BigMeta is a _meta value whose integer does not fit a float64 exactly and
// whose nested object has keys out of alphabetical order.
const BigMeta = `{"trace":9007199254740993,"nested":{"z":[1,2.50,"x"],"a":{"deep":null}}}`

// BigNumber is the integer in BigMeta, as written.
const BigNumber = "9007199254740993"

// UnknownObject is a compact object carrying tag under tagKey, with keys in
// non-alphabetical order and BigMeta as _meta.
func UnknownObject(tagKey, tag string) string {
	return `{"zeta":"first","` + tagKey + `":"` + tag + `","alpha":{"y":true,"b":[3,2,1]},"_meta":` + BigMeta + `}`
}

// Value decodes one JSON value, keeping numbers as written (json.Number).
func Value(b []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if d.More() {
		return nil, errors.New("trailing data after the JSON value")
	}
	return v, nil
}

// MustValue is Value, failing the test on invalid JSON.
func MustValue(t testing.TB, b []byte) any {
	t.Helper()
	v, err := Value(b)
	if err != nil {
		t.Fatalf("invalid JSON %s: %v", b, err)
	}
	return v
}

// Same reports whether a and b hold the same JSON value: members in any
// order, null members counted, numbers compared by their literal text.
func Same(a, b []byte) bool {
	va, errA := Value(a)
	vb, errB := Value(b)
	return errA == nil && errB == nil && reflect.DeepEqual(va, vb)
}

// AssertSame fails the test unless got and want hold the same JSON value.
func AssertSame(t testing.TB, got, want []byte) {
	t.Helper()
	if !reflect.DeepEqual(MustValue(t, got), MustValue(t, want)) {
		t.Errorf("re-encoded JSON differs\n got: %s\nwant: %s", got, want)
	}
}

// AssertBytes fails the test unless got is want byte for byte.
func AssertBytes(t testing.TB, got, want []byte) {
	t.Helper()
	if !bytes.Equal(got, want) {
		t.Errorf("re-encoded JSON differs byte-wise\n got: %s\nwant: %s", got, want)
	}
}

// Marshal is json.Marshal, failing the test on error.
func Marshal(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("json.Marshal(%T): %v", v, err)
	}
	return b
}

// HasNumber reports whether the JSON value v holds the number lit anywhere.
func HasNumber(v any, lit string) bool {
	switch v := v.(type) {
	case json.Number:
		return string(v) == lit
	case map[string]any:
		for _, e := range v {
			if HasNumber(e, lit) {
				return true
			}
		}
	case []any:
		for _, e := range v {
			if HasNumber(e, lit) {
				return true
			}
		}
	}
	return false
}

// AssertBigNumber fails the test unless b still holds BigNumber exactly.
func AssertBigNumber(t testing.TB, b []byte) {
	t.Helper()
	if !HasNumber(MustValue(t, b), BigNumber) {
		t.Errorf("number %s lost in %s", BigNumber, b)
	}
}

// AssertDirect fails the test unless v's MarshalJSON, called directly,
// writes want, the output of json.Marshal(v), but for the escaping of
// '<', '>', '&', U+2028 and U+2029 that json.Marshal adds.
func AssertDirect(t testing.TB, v json.Marshaler, want []byte) {
	t.Helper()
	got, err := v.MarshalJSON()
	if err != nil {
		t.Fatalf("%T.MarshalJSON: %v (json.Marshal wrote %s)", v, err, want)
	}
	var escaped bytes.Buffer
	json.HTMLEscape(&escaped, got)
	if !bytes.Equal(escaped.Bytes(), want) {
		t.Errorf("%T.MarshalJSON differs from json.Marshal\ndirect: %s\n  json: %s", v, got, want)
	}
}

// Decode decodes in into a T, failing the test on error.
func Decode[T any](t testing.TB, in string) T {
	t.Helper()
	var v T
	if err := json.Unmarshal([]byte(in), &v); err != nil {
		t.Fatalf("%s: %v", in, err)
	}
	return v
}
