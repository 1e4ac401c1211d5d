package jsontest

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzUnionRoundTrip checks the encoding of a tagged union U decoded from
// data, as the fuzz targets of the generated packages do: what decodes
// encodes (directly, AssertDirect), and the encoding decodes and encodes
// again to the same bytes with the same tag. Data that does not decode, or
// decodes to the unset union (isNull: JSON null, as encoding/json leaves
// it), is left alone.
func FuzzUnionRoundTrip[U interface{ Tag() string }](t *testing.T, data []byte, isNull func(*U) bool) {
	u := new(U)
	if json.Unmarshal(data, u) != nil || isNull(u) {
		return
	}
	first, err := json.Marshal(u)
	if err != nil {
		t.Fatalf("decoded %s but encoding fails: %v", data, err)
	}
	if m, ok := any(u).(json.Marshaler); ok {
		AssertDirect(t, m, first)
	} else {
		t.Fatalf("%T has no MarshalJSON", u)
	}
	again := new(U)
	if err := json.Unmarshal(first, again); err != nil {
		t.Fatalf("decoded %s, encoded %s, which does not decode: %v", data, first, err)
	}
	if (*again).Tag() != (*u).Tag() {
		t.Fatalf("decoded %s with tag %q, encoded %s, which decodes with tag %q", data, (*u).Tag(), first, (*again).Tag())
	}
	second, err := json.Marshal(again)
	if err != nil {
		t.Fatalf("decoded %s, encoded %s, decoded again, and encoding fails: %v", data, first, err)
	}
	if !bytes.Equal(first, second) {
		t.Fatalf("encoding is not stable for input %s\n first: %s\nsecond: %s", data, first, second)
	}
}
