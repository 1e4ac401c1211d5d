package check

import (
	"fmt"
	"strings"
	"testing"

	"github.com/acpgen/acpgen/gen/ir"
)

func str() ir.Ref { return ir.Ref{Kind: ir.RefString} }

func named(t *ir.Type) ir.Ref { return ir.Ref{Kind: ir.RefNamed, Type: t} }

func pkg(types ...*ir.Type) *ir.Package {
	return &ir.Package{Types: types, StableFile: "v1/schema.json", UnstableFile: "v1/schema.unstable.json"}
}

// TestErrors builds packages the schema loader would not let through, or
// that only the IR can express, and expects each problem located.
func TestErrors(t *testing.T) {
	// F and G are each other.
	f := &ir.Type{Name: "F", Pointer: "/$defs/F", Kind: ir.Named}
	g := &ir.Type{Name: "G", Pointer: "/$defs/G", Kind: ir.Named, Underlying: &ir.Ref{Kind: ir.RefNamed, Type: f}}
	f.Underlying = &ir.Ref{Kind: ir.RefNamed, Type: g}

	// S holds itself through a property whose null means something.
	s := &ir.Type{Name: "S", Pointer: "/$defs/S", Kind: ir.Struct}
	s.Fields = []*ir.Field{{JSONName: "self", Pointer: "/$defs/S/properties/self", NullMeans: true, Nullable: true, Type: named(s)}}

	// U is a payload of its own variant.
	u := &ir.Type{Name: "U", Pointer: "/$defs/U", Kind: ir.Union}
	u.Union = &ir.UnionInfo{Tag: "t", Variants: []*ir.Variant{{Name: "a", Tag: "a", Pointer: "/$defs/U/oneOf/0", JSON: ir.KindObject, Embeds: []*ir.Type{u}}}}

	// W has 65 required members.
	w := &ir.Type{Name: "W", Pointer: "/$defs/W", Kind: ir.Struct}
	for i := 0; i < 65; i++ {
		w.Fields = append(w.Fields, &ir.Field{JSONName: fmt.Sprint("f", i), Required: true, Type: str()})
	}

	// E has a value twice, and one only the unstable file has.
	e := &ir.Type{Name: "E", Pointer: "/$defs/E", Kind: ir.Enum, Enum: &ir.EnumInfo{Values: []*ir.EnumValue{
		{Name: "a", String: "a"}, {Name: "a", String: "a"}, {Name: "b", String: "b", Gate: ir.Gate{Unstable: true}},
	}}}

	// T is tagged, with a variant that is a string.
	tg := &ir.Type{Name: "T", Pointer: "/$defs/T", Kind: ir.Union, Union: &ir.UnionInfo{Tag: "kind",
		Variants: []*ir.Variant{{Name: "s", Tag: "s", Pointer: "/$defs/T/oneOf/0", JSON: ir.KindString, Value: &ir.Ref{Kind: ir.RefString}}},
		Fallback: &ir.Variant{Name: "other", JSON: ir.KindObject}}}

	err := Package(pkg(f, g, s, u, w, e, tg))
	if err == nil {
		t.Fatal("no error")
	}
	want := []string{
		`v1/schema.json: /$defs/E: enum E has the value a twice (a and a)`,
		`v1/schema.json: /$defs/G: F is defined as itself (F = G = F); Go has no such type`,
		`v1/schema.json: /$defs/S/properties/self: S contains itself by value (S.self → S); Go has no such type: make one of these properties optional or nullable`,
		`v1/schema.json: /$defs/T/oneOf/0: variant "s" of T is not an object, so it cannot carry the tag "kind"`,
		`v1/schema.json: /$defs/U: union U is a payload of one of its own variants; acpgen cannot encode that`,
		`v1/schema.json: /$defs/W: W has 65 required properties; acpgen supports at most 64`,
		`v1/schema.unstable.json: /$defs/E: value "b" of E exists only in the unstable schema; acpgen cannot put one value of an enum behind a build tag`,
	}
	if got := err.Error(); got != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", got, strings.Join(want, "\n"))
	}
}

// TestParts: a variant made of a union payload and members of its own has
// no member-by-member decoder; one of a struct payload has.
func TestParts(t *testing.T) {
	inner := &ir.Type{Name: "In", Pointer: "/$defs/In", Kind: ir.Union, Union: &ir.UnionInfo{Tag: "k",
		Variants: []*ir.Variant{{Name: "x", Tag: "x", Pointer: "/$defs/In/oneOf/0", JSON: ir.KindObject}},
		Fallback: &ir.Variant{Name: "other", JSON: ir.KindObject}}}
	s := &ir.Type{Name: "S", Pointer: "/$defs/S", Kind: ir.Struct}
	alias := &ir.Type{Name: "A", Pointer: "/$defs/A", Kind: ir.Named, Underlying: &ir.Ref{Kind: ir.RefNamed, Type: s}}
	own := []*ir.Field{{JSONName: "n", Type: str()}}
	out := &ir.Type{Name: "Out", Pointer: "/$defs/Out", Kind: ir.Union, Union: &ir.UnionInfo{Tag: "t",
		Variants: []*ir.Variant{
			{Name: "a", Tag: "a", Pointer: "/$defs/Out/oneOf/0", JSON: ir.KindObject, Embeds: []*ir.Type{inner}, Fields: own},
			{Name: "b", Tag: "b", Pointer: "/$defs/Out/oneOf/1", JSON: ir.KindObject, Embeds: []*ir.Type{alias}, Fields: own},
			{Name: "c", Tag: "c", Pointer: "/$defs/Out/oneOf/2", JSON: ir.KindObject, Embeds: []*ir.Type{inner}},
		},
		Fallback: &ir.Variant{Name: "other", JSON: ir.KindObject}}}
	err := Package(pkg(inner, s, alias, out))
	want := `v1/schema.json: /$defs/Out/oneOf/0: variant "a" of Out combines In, which is not an object with properties of its own, with other members`
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}

// TestUntagged: arrays of other items are told apart by trying them; two of
// the same items are not.
func TestUntagged(t *testing.T) {
	arr := func(name string, elem ir.RefKind) *ir.Variant {
		return &ir.Variant{Name: name, Pointer: "/$defs/U/anyOf/" + name, JSON: ir.KindArray,
			Value: &ir.Ref{Kind: ir.RefArray, Elem: &ir.Ref{Kind: elem}}}
	}
	u := &ir.Type{Name: "U", Pointer: "/$defs/U", Kind: ir.Union, Union: &ir.UnionInfo{
		Variants: []*ir.Variant{arr("0", ir.RefString), arr("1", ir.RefBool), arr("2", ir.RefString)}}}
	err := Package(pkg(u))
	want := `v1/schema.json: /$defs/U/anyOf/2: alternatives "0" and "2" of U cannot be told apart: both accept a JSON array of the same items; give them different required properties or a tag`
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}
