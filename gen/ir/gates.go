package ir

import "sort"

// GateSet is what one set of unstable features (a gate key) adds to a
// package, which the emitter writes into one file behind the key's build
// tags: the unstable types of the key, the fields it adds to stable structs
// and unions, the variants it adds to stable unions, each in the order of
// p.Types, and its methods, in the order of p.Methods.
type GateSet struct {
	Key        string
	Types      []*Type
	Extensions []Extension
	Variants   []GatedVariants
	Methods    []*Method
}

// Extension is the fields a gate key adds to the stable type Type.
type Extension struct {
	Type   *Type
	Fields []*Field
}

// GatedVariants is the variants a gate key adds to the stable union Union.
type GatedVariants struct {
	Union    *Type
	Variants []*Variant
}

// GateSets returns the gate sets of p, sorted by key: one for each key that
// an unstable type, an unstable field, variant or enum value of a stable
// type, or an unstable method has.
func GateSets(p *Package) []*GateSet {
	byKey := map[string]*GateSet{}
	set := func(g Gate) *GateSet {
		if !g.Unstable {
			return nil
		}
		s := byKey[g.Key()]
		if s == nil {
			s = &GateSet{Key: g.Key()}
			byKey[s.Key] = s
		}
		return s
	}
	for _, t := range p.Types {
		if s := set(t.Gate); s != nil {
			s.Types = append(s.Types, t)
			continue
		}
		for _, f := range t.Fields {
			if s := set(f.Gate); s != nil && (t.Kind == Struct || t.Kind == Union) {
				if n := len(s.Extensions); n > 0 && s.Extensions[n-1].Type == t {
					s.Extensions[n-1].Fields = append(s.Extensions[n-1].Fields, f)
				} else {
					s.Extensions = append(s.Extensions, Extension{t, []*Field{f}})
				}
			}
		}
		if t.Union != nil {
			for _, v := range t.Union.Variants {
				if s := set(v.Gate); s != nil {
					if n := len(s.Variants); n > 0 && s.Variants[n-1].Union == t {
						s.Variants[n-1].Variants = append(s.Variants[n-1].Variants, v)
					} else {
						s.Variants = append(s.Variants, GatedVariants{t, []*Variant{v}})
					}
				}
			}
		}
		if t.Enum != nil {
			for _, v := range t.Enum.Values {
				set(v.Gate) // rejected by the check stage, but a key all the same
			}
		}
	}
	for _, m := range p.Methods {
		if s := set(m.Gate); s != nil {
			s.Methods = append(s.Methods, m)
		}
	}
	out := make([]*GateSet, 0, len(byKey))
	for _, s := range byKey {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out
}
