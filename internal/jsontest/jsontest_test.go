package jsontest

import "testing"

// TestSame: members in another order are the same JSON; another number
// spelling, another order of items or trailing data are not.
func TestSame(t *testing.T) {
	if !Same([]byte(`{"a":1,"b":[true,null]}`), []byte(` {"b":[true,null],"a":1}`)) {
		t.Error("objects with members in another order differ")
	}
	for _, other := range []string{`{"a":1}`, `{"a":1.0,"b":[true,null]}`, `{"a":1,"b":[null,true]}`, `{"a":1,"b":[true,null]} {}`} {
		if Same([]byte(`{"a":1,"b":[true,null]}`), []byte(other)) {
			t.Errorf("%s equals {\"a\":1,\"b\":[true,null]}", other)
		}
	}
}
