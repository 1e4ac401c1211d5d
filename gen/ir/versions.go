package ir

import (
	"fmt"
	"maps"
	"slices"
	"sort"
)

// MethodMatch says how a method of one protocol version maps onto another
// version: by its name, and by the wire shape of its params and result.
type MethodMatch struct {
	Name string
	Kind MethodKind
	Side string // who handles it
	// From and To are the method in each version; To is nil when the other
	// version lacks it, From when only the other version has it.
	From, To *Method
	// Differs is empty when the params and the result have the same shape
	// in both versions, and otherwise names the first difference, for
	// example `params.info: required in v2 only`.
	Differs string
}

// CompareMethods pairs the stable methods of from with those of to by name
// and compares their params and results, in the order of the method names.
// Only the stable surface is compared: unstable methods, fields and
// variants are left out of both sides. Two types have the same shape when
// a value of one is a value of the other on the wire: the same members,
// required alike, with the same shapes, the same enum values, and the same
// union tags and variants.
func CompareMethods(from, to *Package) []MethodMatch {
	byName := map[string]*Method{}
	for _, m := range to.Methods {
		if !m.Unstable {
			byName[m.Name] = m
		}
	}
	var out []MethodMatch
	for _, m := range from.Methods {
		if m.Unstable {
			continue
		}
		mm := MethodMatch{Name: m.Name, Kind: m.Kind, Side: m.Side, From: m, To: byName[m.Name]}
		delete(byName, m.Name)
		if mm.To != nil {
			c := shapes{from: from.Version, to: to.Version, seen: map[[2]*Type]bool{}}
			mm.Differs = c.types(m.Params, mm.To.Params, "params")
			if mm.Differs == "" && m.Kind == Request {
				mm.Differs = c.types(m.Result, mm.To.Result, "result")
			}
		}
		out = append(out, mm)
	}
	for _, m := range byName {
		out = append(out, MethodMatch{Name: m.Name, Kind: m.Kind, Side: m.Side, To: m})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// shapes compares the stable wire shapes of types of two versions.
type shapes struct {
	from, to string            // the versions, for the messages
	seen     map[[2]*Type]bool // pairs compared or being compared
}

// types returns "" when a and b have the same shape, or the first
// difference, located by path.
func (c *shapes) types(a, b *Type, path string) string {
	switch {
	case a == nil && b == nil:
		return ""
	case a == nil || b == nil:
		return path + ": absent in one version"
	}
	if c.seen[[2]*Type{a, b}] {
		return "" // the same pair, compared where it began
	}
	c.seen[[2]*Type{a, b}] = true
	if a.Kind != b.Kind {
		return fmt.Sprintf("%s: %s in %s, %s in %s", path, kindName(a.Kind), c.from, kindName(b.Kind), c.to)
	}
	switch a.Kind {
	case Named:
		return c.refs(*a.Underlying, *b.Underlying, path)
	case Enum:
		return c.enums(a.Enum, b.Enum, path)
	case Union:
		if d := c.fields(a.Fields, b.Fields, path); d != "" {
			return d
		}
		return c.unions(a, b, path)
	case Struct:
		return c.fields(a.Fields, b.Fields, path)
	}
	return ""
}

// underlying returns the type a defined type over a scalar, list or map is
// defined over, and any other type as it is.
func underlying(r Ref) Ref {
	for r.Kind == RefNamed && r.Type.Kind == Named {
		r = *r.Type.Underlying
	}
	return r
}

func kindName(k Kind) string {
	return [...]string{"an object", "a scalar, list or map", "an enum", "free-form JSON", "a union"}[k]
}

// refs compares two field, element or alternative types. A defined type
// over a scalar, list or map has the shape of what it is defined over.
func (c *shapes) refs(a, b Ref, path string) string {
	a, b = underlying(a), underlying(b)
	switch {
	case a.Kind != b.Kind:
		return fmt.Sprintf("%s: of different JSON types", path)
	case a.Kind == RefNamed:
		return c.types(a.Type, b.Type, path)
	case a.Kind == RefArray || a.Kind == RefMap:
		return c.refs(*a.Elem, *b.Elem, path+"[]")
	case a.Kind == RefInt && (a.Bits != b.Bits || a.Unsigned != b.Unsigned):
		return fmt.Sprintf("%s: integers of different ranges", path)
	case a.Kind == RefRaw && a.Object != b.Object:
		return fmt.Sprintf("%s: free-form JSON of different kinds", path)
	}
	return ""
}

// fields compares the stable members of two objects.
func (c *shapes) fields(a, b []*Field, path string) string {
	fb := map[string]*Field{}
	for _, f := range b {
		if !f.Unstable {
			fb[f.JSONName] = f
		}
	}
	for _, f := range a {
		if f.Unstable {
			continue
		}
		g := fb[f.JSONName]
		at := path + "." + f.JSONName
		switch {
		case g == nil:
			return fmt.Sprintf("%s: in %s only", at, c.from)
		case f.Required != g.Required:
			return fmt.Sprintf("%s: required in one version only", at)
		case f.NullMeans != g.NullMeans:
			return fmt.Sprintf("%s: null means something in one version only", at)
		}
		if d := c.refs(f.Type, g.Type, at); d != "" {
			return d
		}
		delete(fb, f.JSONName)
	}
	for _, name := range slices.Sorted(maps.Keys(fb)) {
		return fmt.Sprintf("%s.%s: in %s only", path, name, c.to)
	}
	return ""
}

// enums compares the values of two enums.
func (c *shapes) enums(a, b *EnumInfo, path string) string {
	switch {
	case a.Integer != b.Integer:
		return path + ": a string enum in one version, an integer enum in the other"
	case a.Open != b.Open:
		return path + ": an open enum (unknown values kept) in one version only"
	}
	vb := map[string]bool{}
	for _, v := range b.Values {
		vb[v.String+fmt.Sprint(v.Int)] = true
	}
	for _, v := range a.Values {
		if !vb[v.String+fmt.Sprint(v.Int)] {
			return fmt.Sprintf("%s: value %q in %s only", path, v.Name, c.from)
		}
		delete(vb, v.String+fmt.Sprint(v.Int))
	}
	if len(vb) > 0 {
		return fmt.Sprintf("%s: values in %s only", path, c.to)
	}
	return ""
}

// unions compares the stable variants of two unions.
func (c *shapes) unions(a, b *Type, path string) string {
	ua, ub := a.Union, b.Union
	if ua.Tag != ub.Tag || (ua.Default == nil) != (ub.Default == nil) {
		return path + ": unions of different kinds"
	}
	vb := map[string]*Variant{}
	for _, v := range b.OwnVariants() {
		vb[variantKey(v)] = v
	}
	for _, v := range a.OwnVariants() {
		w := vb[variantKey(v)]
		at := fmt.Sprintf("%s{%s}", path, variantKey(v))
		if w == nil {
			return fmt.Sprintf("%s: in %s only", at, c.from)
		}
		delete(vb, variantKey(v))
		if (v.Value == nil) != (w.Value == nil) {
			return at + ": different kinds"
		}
		if v.Value != nil {
			if d := c.refs(*v.Value, *w.Value, at); d != "" {
				return d
			}
			continue
		}
		if d := c.fields(variantFields(v), variantFields(w), at); d != "" {
			return d
		}
	}
	for _, k := range slices.Sorted(maps.Keys(vb)) {
		return fmt.Sprintf("%s{%s}: in %s only", path, k, c.to)
	}
	return ""
}

// variantKey names a variant: its tag, or its JSON kind and title.
func variantKey(v *Variant) string {
	if v.Tag != "" {
		return v.Tag
	}
	return string(v.JSON) + " " + v.Name
}

// variantFields returns the members a variant carries: its embeds' and its own.
func variantFields(v *Variant) []*Field {
	var fs []*Field
	for _, e := range v.Embeds {
		fs = append(fs, e.Fields...)
	}
	return append(fs, v.Fields...)
}

// CompareTypes returns "" when a, a type of version from, and b, a type of
// version to, have the same stable shape on the wire, or their first
// difference, located from "value".
func CompareTypes(from, to string, a, b *Type) string {
	c := shapes{from: from, to: to, seen: map[[2]*Type]bool{}}
	return c.types(a, b, "value")
}
