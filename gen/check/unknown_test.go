package check

import (
	"testing"

	"github.com/acpgen/acpgen/gen/ir"
)

// TestKeepUnknown: a struct keeps the members its schema allows without
// naming them where it is a whole object or the whole payload of a
// variant, and not where it is one of several parts of an object or
// declares additionalProperties, or forbids them.
func TestKeepUnknown(t *testing.T) {
	obj := func(name string) *ir.Type {
		return &ir.Type{Name: name, Pointer: "/$defs/" + name, Kind: ir.Struct, Fields: []*ir.Field{{JSONName: "s" + name, Type: str()}}}
	}
	whole, payload, extra, closed := obj("Whole"), obj("Payload"), obj("Extra"), obj("Closed")
	extra.Extra, closed.Closed = true, true
	beside, alt, deep := obj("Beside"), obj("Alt"), obj("Deep")
	variant := func(tag string, embeds []*ir.Type, fields []*ir.Field) *ir.Variant {
		return &ir.Variant{Name: tag, Tag: tag, Pointer: "/$defs/U/oneOf/" + tag, JSON: ir.KindObject, Embeds: embeds, Fields: fields}
	}
	// An untagged union with a shared field: its alternative shares the
	// object with it.
	shared := &ir.Type{Name: "Scoped", Pointer: "/$defs/Scoped", Kind: ir.Union, Fields: []*ir.Field{{JSONName: "x", Type: str()}},
		Union: &ir.UnionInfo{Variants: []*ir.Variant{{Name: "alt", Pointer: "/$defs/Scoped/anyOf/0", JSON: ir.KindObject, Embeds: []*ir.Type{alt}, Required: []string{"sAlt"}}}}}
	// A tagged union inside a variant of another: its payloads share the
	// object with the outer tag.
	inner := &ir.Type{Name: "In", Pointer: "/$defs/In", Kind: ir.Union, Union: &ir.UnionInfo{Tag: "k",
		Variants: []*ir.Variant{{Name: "d", Tag: "d", Pointer: "/$defs/In/oneOf/0", JSON: ir.KindObject, Embeds: []*ir.Type{deep}}},
		Fallback: &ir.Variant{Name: "other", JSON: ir.KindObject}}}
	u := &ir.Type{Name: "U", Pointer: "/$defs/U", Kind: ir.Union, Union: &ir.UnionInfo{Tag: "t",
		Variants: []*ir.Variant{
			variant("p", []*ir.Type{payload}, nil),
			variant("b", []*ir.Type{beside}, []*ir.Field{{JSONName: "own", Type: str()}}),
			variant("i", []*ir.Type{inner}, nil),
		},
		Fallback: &ir.Variant{Name: "other", JSON: ir.KindObject}}}
	p := pkg(whole, payload, extra, closed, beside, alt, deep, shared, inner, u)
	keepUnknown(p)
	for ty, want := range map[*ir.Type]bool{whole: true, payload: true, extra: false, closed: false, beside: false, alt: false, deep: false, u: false} {
		if ty.KeepsUnknown != want {
			t.Errorf("%s keeps unknown members: %v, want %v", ty.Name, ty.KeepsUnknown, want)
		}
	}
}
