package ir

import (
	"slices"
	"strings"
	"testing"
)

// selectFixture is a package with a stable struct whose unstable field uses
// a type of feature f1, an item of no known feature that uses a type of
// feature f2, a union with a variant of f2, an enum value of f1 and a
// method of f1.
func selectFixture() *Package {
	gate := func(f ...string) Gate { return Gate{Unstable: true, Features: f} }
	b := &Type{Name: "B", Kind: Struct, Gate: gate("f1")}
	d := &Type{Name: "D", Kind: Struct, Gate: gate("f2")}
	a := &Type{Name: "A", Kind: Struct, Fields: []*Field{
		{JSONName: "x", Type: Ref{Kind: RefString}},
		{JSONName: "y", Type: Ref{Kind: RefNamed, Type: b}, Gate: gate("f1")},
	}}
	c := &Type{Name: "C", Kind: Struct, Gate: gate(), Fields: []*Field{{JSONName: "d", Type: Ref{Kind: RefNamed, Type: d}}}}
	u := &Type{Name: "U", Kind: Union, Union: &UnionInfo{Tag: "t", Variants: []*Variant{
		{Name: "one", Tag: "one"},
		{Name: "two", Tag: "two", Embeds: []*Type{d}, Gate: gate("f2")},
	}, Fallback: &Variant{Name: "Other"}}}
	e := &Type{Name: "E", Kind: Enum, Enum: &EnumInfo{Values: []*EnumValue{{Name: "p"}, {Name: "q", Gate: gate("f1", "f2")}}}}
	return &Package{Types: []*Type{a, b, c, d, u, e}, Methods: []*Method{{Name: "m", Params: b, Gate: gate("f1")}}}
}

// describe lists what p has, with the build tags of each unstable item.
func describe(p *Package) string {
	var out []string
	add := func(what string, g Gate) {
		if g.Unstable {
			what += "[" + strings.Join(g.Tags(), "|") + "]"
		}
		out = append(out, what)
	}
	for _, t := range p.Types {
		add(t.Name, t.Gate)
		for _, f := range t.Fields {
			add(t.Name+"."+f.JSONName, f.Gate)
		}
		if t.Union != nil {
			for _, v := range t.Union.Variants {
				add(t.Name+"."+v.Name, v.Gate)
			}
		}
		if t.Enum != nil {
			for _, v := range t.Enum.Values {
				add(t.Name+"."+v.Name, v.Gate)
			}
		}
	}
	for _, m := range p.Methods {
		add("method "+m.Name, m.Gate)
	}
	slices.Sort(out)
	return strings.Join(out, " ")
}

func TestSelect(t *testing.T) {
	for _, tc := range []struct {
		name string
		sel  Selection
		want string
	}{
		{"all", Selection{All: true},
			"A A.x A.y[f1|unstable] B[f1|unstable] C.d C[unstable] D[f2|unstable] E E.p E.q[f1|f2|unstable] U U.one U.two[f2|unstable] method m[f1|unstable]"},
		{"none", Selection{Features: []string{}},
			"A A.x E E.p U U.one"},
		{"f1", Selection{Features: []string{"f1"}},
			"A A.x A.y[f1|unstable] B[f1|unstable] E E.p E.q[f1|unstable] U U.one method m[f1|unstable]"},
		// C has no known feature and uses D of f2: D comes along, under the
		// umbrella tag only.
		{"umbrella items", Selection{Features: []string{Umbrella}},
			"A A.x C.d C[unstable] D[unstable] E E.p U U.one"},
		{"f2 baked", Selection{Features: []string{"f2"}, Bake: true},
			"A A.x D E E.p E.q U U.one U.two"},
		{"all baked", Selection{All: true, Bake: true},
			"A A.x A.y B C C.d D E E.p E.q U U.one U.two method m"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := selectFixture()
			Select(p, tc.sel)
			if got := describe(p); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}
