package check

import (
	"testing"

	"github.com/acpgen/acpgen/gen/ir"
)

// TestLower: the shapes of unions and the package's layers, as the emitter
// reads them.
func TestLower(t *testing.T) {
	obj := &ir.Type{Name: "O", Kind: ir.Struct}
	object := func(name string, embeds ...*ir.Type) *ir.Variant {
		return &ir.Variant{Name: name, Tag: name, JSON: ir.KindObject, Embeds: embeds}
	}
	// Inner is tagged, with a fallback: it keeps unknown variants.
	inner := &ir.Type{Name: "Inner", Kind: ir.Union, Union: &ir.UnionInfo{Tag: "t",
		Variants: []*ir.Variant{object("a", obj)}, Fallback: &ir.Variant{Name: "other", JSON: ir.KindObject}}}
	// Outer's variant embeds Inner: Inner is a carrier, Outer holds raw through it.
	outer := &ir.Type{Name: "Outer", Kind: ir.Union, Union: &ir.UnionInfo{
		Variants: []*ir.Variant{object("b", inner)}}}
	// Scalar has a string alternative and no fallback.
	scalar := &ir.Type{Name: "Scalar", Kind: ir.Union, Union: &ir.UnionInfo{Variants: []*ir.Variant{
		{Name: "s", JSON: ir.KindString, Value: &ir.Ref{Kind: ir.RefString}}, object("c", obj)}}}
	// Any is untagged with objects only, and a fallback that keeps any value.
	anyValue := &ir.Type{Name: "Any", Kind: ir.Union, Union: &ir.UnionInfo{
		Variants: []*ir.Variant{object("d", obj)}, Fallback: &ir.Variant{Name: "other", JSON: ir.KindAny}}}
	p := pkg(obj, inner, outer, scalar, anyValue)
	Lower(p)
	for _, c := range []struct {
		t                          *ir.Type
		objects, holdsRaw, carrier bool
	}{
		{inner, true, true, true},
		{outer, true, true, false},
		{scalar, false, false, false},
		{anyValue, false, true, false},
	} {
		u := c.t.Union
		if u.Objects != c.objects || u.HoldsRaw != c.holdsRaw || u.Carrier != c.carrier {
			t.Errorf("%s: objects, holds raw, carrier = %v, %v, %v; want %v, %v, %v", c.t.Name, u.Objects, u.HoldsRaw, u.Carrier, c.objects, c.holdsRaw, c.carrier)
		}
	}
	if p.RPC || p.Conn {
		t.Errorf("a package without RequestId and Error has the JSON-RPC layer (%v) or connections (%v)", p.RPC, p.Conn)
	}

	id := &ir.Type{Name: "RequestId", Kind: ir.Named, Underlying: &ir.Ref{Kind: ir.RefString}}
	errType := &ir.Type{Name: "Error", Kind: ir.Struct}
	p = pkg(id, errType, obj)
	p.Methods = []*ir.Method{{Name: "m", Params: obj}}
	Lower(p)
	if !p.RPC || p.Conn {
		t.Errorf("RequestId, Error and a method, no sides: RPC, Conn = %v, %v; want true, false", p.RPC, p.Conn)
	}
	p.Sides = []*ir.Side{{Name: "agent"}, {Name: "client"}}
	Lower(p)
	if !p.RPC || !p.Conn {
		t.Errorf("with two sides: RPC, Conn = %v, %v; want true, true", p.RPC, p.Conn)
	}
}
