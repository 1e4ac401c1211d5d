package acpv2

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/acpgen/acpgen/internal/conformance"
	"github.com/acpgen/acpgen/internal/deftest"
)

// TestDeepCopy checks the session state's deep copy on every definition
// and on the conformance corpus, and that every definition is copied
// structurally, not by a JSON round trip.
func TestDeepCopy(t *testing.T) {
	for name, def := range definitions {
		if copierOf(reflect.TypeOf(def()).Elem()).unsupported {
			t.Errorf("%s is not copied structurally", name)
		}
	}
	deftest.RunCopies(t, definitions, conformance.Package{
		Version:               "v2",
		NewRequestParams:      NewRequestParams,
		NewNotificationParams: NewNotificationParams,
		NewResult:             NewResult,
		NewError:              func() any { return new(Error) },
	}, func(v any) any { return deepCopy(v) })
}

// TestDeepCopyRaw checks that free-form JSON is copied byte for byte,
// whitespace included, and not shared.
func TestDeepCopyRaw(t *testing.T) {
	var c ToolCallUpdate
	raw := `{"toolCallId":"t1","rawInput":{"a": [1, 2]},"_meta":{ "k" : "<v>" }}`
	if err := json.Unmarshal([]byte(raw), &c); err != nil {
		t.Fatal(err)
	}
	d := deepCopy(&c)
	if string(d.RawInput.Value) != `{"a": [1, 2]}` || string(d.Meta.Value) != `{ "k" : "<v>" }` {
		t.Fatalf("copied rawInput %s, _meta %s", d.RawInput.Value, d.Meta.Value)
	}
	d.RawInput.Value[1], d.Meta.Value[1] = 'X', 'X'
	if string(c.RawInput.Value) != `{"a": [1, 2]}` || string(c.Meta.Value) != `{ "k" : "<v>" }` {
		t.Errorf("changing the copy changed the original: rawInput %s, _meta %s", c.RawInput.Value, c.Meta.Value)
	}
}

// copyOdd has an unexported list, which a structural copy cannot reach.
type copyOdd struct {
	Name string
	odd  []int
}

// TestDeepCopyFallback checks that a type with memory reflection cannot
// reach is copied, all of it, by a JSON round trip instead, and that a
// nil pointer is returned as it is.
func TestDeepCopyFallback(t *testing.T) {
	if !copierOf(reflect.TypeOf(copyOdd{})).unsupported {
		t.Fatal("a struct with an unexported list is taken as copyable")
	}
	o := &copyOdd{Name: "n", odd: []int{1}}
	if c := deepCopy(o); c == o || c.Name != "n" || c.odd != nil {
		t.Errorf("copied %+v from %+v", c, o)
	}
	if c := deepCopy((*ToolCallUpdate)(nil)); c != nil {
		t.Errorf("copied %v from nil", c)
	}
}
