package check

import (
	"reflect"
	"testing"

	"github.com/acpgen/acpgen/gen/ir"
)

// TestOtherShared: an unknown variant is decoded for the stable shared
// fields and the fallback's own, and, by gate key, for the shared fields
// that build tags add to a stable union; an unstable union's fields are
// all its own.
func TestOtherShared(t *testing.T) {
	tokens := ir.Gate{Unstable: true, Features: []string{"unstable_tokens"}}
	idle := &ir.Type{Name: "Idle", Kind: ir.Union, Fields: []*ir.Field{
		{JSONName: "_meta", Type: str()},
		{JSONName: "usage", Type: str(), Gate: tokens},
		{JSONName: "cost", Type: str(), Gate: tokens},
		{JSONName: "note", Type: str(), Gate: ir.Gate{Unstable: true}},
	}, Union: &ir.UnionInfo{Tag: "stop", Fallback: &ir.Variant{Name: "other", Fields: []*ir.Field{{JSONName: "stop", Type: str()}, {JSONName: "why", Type: str()}}}}}
	if got := otherShared(idle); !reflect.DeepEqual(got, []string{"_meta", "why"}) {
		t.Errorf("stable: %q", got)
	}
	want := map[string][]string{"unstable_tokens": {"cost", "usage"}, "unstable": {"note"}}
	if got := otherSharedGated(idle); !reflect.DeepEqual(got, want) {
		t.Errorf("gated: %q, want %q", got, want)
	}
	idle.Gate = ir.Gate{Unstable: true}
	if got := otherSharedGated(idle); got != nil {
		t.Errorf("an unstable union: gated %q", got)
	}
}
