package conformance

import (
	"encoding/json"
	"testing"
)

// Constructed is what a params or result constructor of a generated
// package returned for Method, as Kind ("request", "notification" or
// "result"), and its JSON.
type Constructed struct {
	Method string
	Kind   string
	Value  json.Marshaler
	Want   string
}

// RunConstructed encodes each constructed value, compares it with its JSON,
// and decodes it back as the params or result of its method (the
// constructors of the generated package: newRequest, newNotification and
// newResult), which must encode alike.
func RunConstructed(t *testing.T, newRequest, newNotification, newResult func(method string) any, cases []Constructed) {
	kinds := map[string]func(string) any{"request": newRequest, "notification": newNotification, "result": newResult}
	for _, c := range cases {
		got, err := c.Value.MarshalJSON()
		if err != nil {
			t.Errorf("%s: %v", c.Method, err)
			continue
		}
		if string(got) != c.Want {
			t.Errorf("%s: %s, want %s", c.Method, got, c.Want)
		}
		back, ok := kinds[c.Kind](c.Method).(interface {
			json.Unmarshaler
			json.Marshaler
		})
		if !ok {
			t.Errorf("%s: no %s type", c.Method, c.Kind)
			continue
		}
		if err := back.UnmarshalJSON(got); err != nil {
			t.Errorf("%s: decoding %s: %v", c.Method, got, err)
			continue
		}
		if again, _ := back.MarshalJSON(); string(again) != c.Want {
			t.Errorf("%s: decoded and encoded again: %s, want %s", c.Method, again, c.Want)
		}
	}
}
