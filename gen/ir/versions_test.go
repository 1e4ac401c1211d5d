package ir

import (
	"strings"
	"testing"
)

func TestCompareMethods(t *testing.T) {
	str := Ref{Kind: RefString}
	path := &Type{Name: "Path", Kind: Named, Underlying: &str}
	obj := func(fields ...*Field) *Type { return &Type{Kind: Struct, Fields: fields} }
	field := func(name string, r Ref, required bool) *Field {
		return &Field{JSONName: name, Type: r, Required: required}
	}
	named := func(t *Type) Ref { return Ref{Kind: RefNamed, Type: t} }
	enum := func(open bool, values ...string) *Type {
		e := &EnumInfo{Open: open}
		for _, v := range values {
			e.Values = append(e.Values, &EnumValue{Name: v, String: v})
		}
		return &Type{Kind: Enum, Enum: e}
	}
	union := func(variants ...*Variant) *Type {
		return &Type{Kind: Union, Union: &UnionInfo{Tag: "type", Variants: variants}}
	}
	variant := func(tag string, fields ...*Field) *Variant { return &Variant{Tag: tag, Fields: fields} }
	// A list of itself: the comparison ends where it began.
	tree := obj(field("name", str, true))
	tree.Fields = append(tree.Fields, field("children", Ref{Kind: RefArray, Elem: &Ref{Kind: RefNamed, Type: tree}}, false))
	tree2 := obj(field("name", named(path), true))
	tree2.Fields = append(tree2.Fields, field("children", Ref{Kind: RefArray, Elem: &Ref{Kind: RefNamed, Type: tree2}}, false))
	unstable := field("draft", str, false)
	unstable.Unstable = true

	for _, c := range []struct {
		name       string
		from, to   *Type
		wantDiffer string
	}{
		{"same", obj(field("cwd", str, true)), obj(field("cwd", named(path), true)), ""},
		{"recursive", tree, tree2, ""},
		{"unstable fields left out", obj(field("a", str, true), unstable), obj(field("a", str, true)), ""},
		{"missing", obj(field("a", str, true), field("b", str, false)), obj(field("a", str, true)), "params.b: in v1 only"},
		{"added", obj(), obj(field("c", str, false)), "params.c: in v2 only"},
		{"required", obj(field("a", str, true)), obj(field("a", str, false)), "params.a: required in one version only"},
		{"type", obj(field("a", str, true)), obj(field("a", Ref{Kind: RefBool}, true)), "params.a: of different JSON types"},
		{"enum values", obj(field("e", named(enum(false, "x", "y")), true)), obj(field("e", named(enum(false, "x")), true)),
			`params.e: value "y" in v1 only`},
		{"open enum", obj(field("e", named(enum(false, "x")), true)), obj(field("e", named(enum(true, "x")), true)),
			"params.e: an open enum (unknown values kept) in one version only"},
		{"variants", union(variant("a", field("x", str, true))), union(variant("a", field("x", str, true)), variant("b")),
			"params{b}: in v2 only"},
		{"variant fields", union(variant("a", field("x", str, true))), union(variant("a", field("y", str, true))),
			"params{a}.x: in v1 only"},
	} {
		t.Run(c.name, func(t *testing.T) {
			from := &Package{Version: "v1", Methods: []*Method{{Name: "m", Kind: Notification, Params: c.from}}}
			to := &Package{Version: "v2", Methods: []*Method{{Name: "m", Kind: Notification, Params: c.to}}}
			got := CompareMethods(from, to)
			if len(got) != 1 || got[0].Differs != c.wantDiffer {
				t.Errorf("got %+v, want differs %q", got, c.wantDiffer)
			}
		})
	}
}

func TestCompareMethodsPairs(t *testing.T) {
	p := func(version string, names ...string) *Package {
		pkg := &Package{Version: version}
		for _, n := range names {
			pkg.Methods = append(pkg.Methods, &Method{Name: n, Kind: Notification, Params: &Type{Kind: Struct}})
		}
		return pkg
	}
	from := p("v1", "both", "old")
	to := p("v2", "both", "new")
	to.Methods = append(to.Methods, &Method{Name: "draft", Gate: Gate{Unstable: true}})
	got := CompareMethods(from, to)
	var summary []string
	for _, m := range got {
		summary = append(summary, m.Name+":"+map[bool]string{true: "1", false: "-"}[m.From != nil]+map[bool]string{true: "2", false: "-"}[m.To != nil])
	}
	if want := "both:12 new:-2 old:1-"; strings.Join(summary, " ") != want {
		t.Errorf("got %s, want %s", strings.Join(summary, " "), want)
	}
}
