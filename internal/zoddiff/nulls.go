package zoddiff

import (
	"github.com/acpgen/acpgen/gen/ir"
	"github.com/acpgen/acpgen/gen/load"
	"github.com/acpgen/acpgen/schema"
)

// Null members. Where the schema gives null no meaning of its own ("Omitted
// and `null` are equivalent"), a decoder may drop it; where it does (patch
// semantics, "`null` clears it"), dropping it loses data. Which is which is
// decided once, in the intermediate representation (gen/ir/nullability.go,
// with its table test); the comparison uses that decision to remove the
// null members that mean nothing from both sides.

// nullTypes returns the IR types of file by schema name, and the names of
// its methods.
func nullTypes(file string) (map[string]*ir.Type, map[string]bool, error) {
	data, err := schema.FS.ReadFile(file)
	if err != nil {
		return nil, nil, err
	}
	f, err := load.Parse(file, data)
	if err != nil {
		return nil, nil, err
	}
	p, err := ir.Build(f, ir.Options{})
	if err != nil {
		return nil, nil, err
	}
	out := map[string]*ir.Type{}
	for _, t := range p.Types {
		out[t.Name] = t
	}
	methods := map[string]bool{}
	for _, m := range p.Methods {
		methods[m.Name] = true
	}
	return out, methods, nil
}

// dropMeaninglessNulls removes from v, a value of the types ts, the null
// members whose field gives null no meaning of its own.
func dropMeaninglessNulls(v any, ts []*ir.Type) {
	switch v := v.(type) {
	case map[string]any:
		fields := map[string][]*ir.Field{}
		defaultTags := map[string]bool{}
		for _, t := range ts {
			collectFields(t, v, fields, defaultTags, map[*ir.Type]bool{})
		}
		for k, e := range v {
			if e == nil && defaultTags[k] {
				delete(v, k)
				continue
			}
			fs := fields[k]
			if e == nil && len(fs) > 0 && !anyDistinct(fs) {
				delete(v, k)
				continue
			}
			var next, values []*ir.Type
			for _, f := range fs {
				if u := underlying(f.Type); u.Kind == ir.RefMap {
					values = append(values, typesOf(*u.Elem)...)
				} else {
					next = append(next, typesOf(f.Type)...)
				}
			}
			dropMeaninglessNulls(e, next)
			if m, ok := e.(map[string]any); ok && len(values) > 0 {
				for _, mv := range m {
					dropMeaninglessNulls(mv, values)
				}
			}
		}
	case []any:
		next := ts
		for _, t := range ts {
			if t.Kind == ir.Named && t.Underlying != nil && t.Underlying.Kind == ir.RefArray {
				next = append(next, typesOf(*t.Underlying.Elem)...)
			}
		}
		for _, e := range v {
			dropMeaninglessNulls(e, next)
		}
	}
}

func anyDistinct(fs []*ir.Field) bool {
	for _, f := range fs {
		if f.Null == ir.NullDistinct {
			return true
		}
	}
	return false
}

// collectFields gathers the fields the JSON object obj of t can have, by
// name: its own, and for a union those of the variant its tag names (or of
// every variant) and their payloads.
// A null tag selects a union's variant without one, as absence does:
// defaultTags gets the tags of such unions.
func collectFields(t *ir.Type, obj map[string]any, out map[string][]*ir.Field, defaultTags map[string]bool, seen map[*ir.Type]bool) {
	if t == nil || seen[t] {
		return
	}
	seen[t] = true
	if t.Union != nil && t.Union.Default != nil {
		defaultTags[t.Union.Tag] = true
	}
	for _, f := range t.Fields {
		out[f.JSONName] = append(out[f.JSONName], f)
	}
	if t.Kind == ir.Named && t.Underlying != nil && t.Underlying.Kind == ir.RefNamed {
		collectFields(t.Underlying.Type, obj, out, defaultTags, seen)
	}
	if t.Union != nil {
		for _, v := range variantsFor(t.Union, obj) {
			for _, f := range v.Fields {
				out[f.JSONName] = append(out[f.JSONName], f)
			}
			for _, emb := range v.Embeds {
				collectFields(emb, obj, out, defaultTags, seen)
			}
			if v.Value != nil {
				for _, vt := range typesOf(*v.Value) {
					collectFields(vt, obj, out, defaultTags, seen)
				}
			}
		}
	}
}

// variantsFor returns the variants of u that the object obj can be: the
// one its tag names, or all of them.
func variantsFor(u *ir.UnionInfo, obj map[string]any) []*ir.Variant {
	if tag, ok := obj[u.Tag].(string); ok && u.Tag != "" {
		for _, v := range u.Variants {
			if v.Tag == tag {
				return []*ir.Variant{v}
			}
		}
	}
	return u.All()
}

// typesOf returns the named types a value of r is, looking through lists
// and maps: a list's items and a map's values are walked as the list is.
func typesOf(r ir.Ref) []*ir.Type {
	switch r.Kind {
	case ir.RefNamed:
		return []*ir.Type{r.Type}
	case ir.RefArray, ir.RefMap:
		return typesOf(*r.Elem)
	}
	return nil
}

// underlying looks through defined types to the list, map or union below.
func underlying(r ir.Ref) ir.Ref {
	for r.Kind == ir.RefNamed && r.Type.Kind == ir.Named && r.Type.Underlying != nil {
		r = *r.Type.Underlying
	}
	return r
}
