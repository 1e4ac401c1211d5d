package ir

import "slices"

// Selection says which unstable items a package keeps and how they are
// gated.
type Selection struct {
	// All keeps every unstable item. Otherwise Features lists the features
	// kept; the name Umbrella in it keeps the items of no known feature.
	All      bool
	Features []string
	// Bake compiles the kept items in without build tags: they become part
	// of the plain build.
	Bake bool
}

// Select drops the unstable items of p that s does not keep — types,
// fields, variants, enum values and methods — so that no code is generated
// for them, narrows the features of the items it keeps to the selected
// ones, and with s.Bake makes them stable. A type that a kept item uses is
// kept too: an item of no known feature may use a type of a feature that is
// not selected; the type then keeps only the umbrella tag.
func Select(p *Package, s Selection) {
	keep := func(g Gate) bool {
		if !g.Unstable || s.All {
			return true
		}
		if len(g.Features) == 0 {
			return slices.Contains(s.Features, Umbrella)
		}
		for _, f := range g.Features {
			if slices.Contains(s.Features, f) {
				return true
			}
		}
		return false
	}
	kept := keptTypes(p, keep)
	narrow := func(g *Gate) {
		switch {
		case s.Bake:
			*g = Gate{}
		case g.Unstable && !s.All:
			g.Features = slices.DeleteFunc(slices.Clone(g.Features), func(f string) bool {
				return !slices.Contains(s.Features, f)
			})
		}
	}
	fields := func(fs []*Field) []*Field {
		fs = slices.DeleteFunc(fs, func(f *Field) bool { return !keep(f.Gate) })
		for _, f := range fs {
			narrow(&f.Gate)
		}
		return fs
	}
	p.Types = slices.DeleteFunc(p.Types, func(t *Type) bool { return !kept[t] })
	for _, t := range p.Types {
		narrow(&t.Gate)
		t.Fields = fields(t.Fields)
		if t.Enum != nil {
			t.Enum.Values = slices.DeleteFunc(t.Enum.Values, func(v *EnumValue) bool { return !keep(v.Gate) })
			for _, v := range t.Enum.Values {
				narrow(&v.Gate)
			}
		}
		if t.Union != nil {
			t.Union.Variants = slices.DeleteFunc(t.Union.Variants, func(v *Variant) bool { return !keep(v.Gate) })
			for _, v := range t.Union.All() {
				narrow(&v.Gate)
				v.Fields = fields(v.Fields)
			}
		}
	}
	p.Methods = slices.DeleteFunc(p.Methods, func(m *Method) bool { return !keep(m.Gate) })
	for _, m := range p.Methods {
		narrow(&m.Gate)
	}
}

// keptTypes returns the types that keep selects and the types that the
// items kept with them use, transitively.
func keptTypes(p *Package, keep func(Gate) bool) map[*Type]bool {
	kept := map[*Type]bool{}
	var queue []*Type
	use := func(ts ...*Type) {
		for _, t := range ts {
			if t != nil && !kept[t] {
				kept[t] = true
				queue = append(queue, t)
			}
		}
	}
	for _, t := range p.Types {
		if keep(t.Gate) {
			use(t)
		}
	}
	for _, m := range p.Methods {
		if keep(m.Gate) {
			use(m.Params, m.Result)
		}
	}
	fields := func(fs []*Field) {
		for _, f := range fs {
			if keep(f.Gate) {
				use(refTypes(f.Type)...)
			}
		}
	}
	for len(queue) > 0 {
		t := queue[0]
		queue = queue[1:]
		fields(t.Fields)
		if t.Underlying != nil {
			use(refTypes(*t.Underlying)...)
		}
		if t.Union == nil {
			continue
		}
		for _, v := range t.Union.All() {
			if !keep(v.Gate) {
				continue
			}
			use(v.Embeds...)
			if v.Value != nil {
				use(refTypes(*v.Value)...)
			}
			fields(v.Fields)
		}
	}
	return kept
}
