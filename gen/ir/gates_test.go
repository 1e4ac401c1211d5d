package ir

import (
	"reflect"
	"testing"
)

// TestGateSets: each gate key in use gets one set, sorted by key, with its
// types, the fields it adds to stable structs and unions (by type) and the
// variants it adds to stable unions (by union), in the order of p.Types,
// and its methods.
func TestGateSets(t *testing.T) {
	umbrella := Gate{Unstable: true}
	nes := Gate{Unstable: true, Features: []string{"unstable_nes"}}
	fork := Gate{Unstable: true, Features: []string{"unstable_fork"}}
	a, b, c := &Field{JSONName: "a", Gate: nes}, &Field{JSONName: "b"}, &Field{JSONName: "c", Gate: nes}
	d := &Field{JSONName: "d", Gate: umbrella}
	st := &Type{Name: "S", Kind: Struct, Fields: []*Field{a, b, c, d}}
	named := &Type{Name: "N", Kind: Named, Fields: []*Field{{JSONName: "x", Gate: nes}}}
	v1, v2 := &Variant{Name: "one"}, &Variant{Name: "two", Gate: nes}
	un := &Type{Name: "U", Kind: Union, Union: &UnionInfo{Tag: "t", Variants: []*Variant{v1, v2}}}
	newType := &Type{Name: "New", Kind: Struct, Gate: nes, Fields: []*Field{{JSONName: "y", Gate: nes}}}
	p := &Package{Types: []*Type{st, named, un, newType}, Methods: []*Method{{Name: "m", Gate: fork}}}

	got := GateSets(p)
	want := []*GateSet{
		{Key: "unstable"}, // filled below
		{Key: "unstable_fork", Methods: p.Methods},
		{Key: "unstable_nes", Types: []*Type{newType}, Extensions: []Extension{{st, []*Field{a, c}}}, Variants: []GatedVariants{{un, []*Variant{v2}}}},
	}
	want[0].Extensions = []Extension{{st, []*Field{d}}}
	if len(got) != len(want) {
		t.Fatalf("got %d gate sets, want %d", len(got), len(want))
	}
	for i := range want {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Errorf("set %d: got %+v, want %+v", i, got[i], want[i])
		}
	}
}
