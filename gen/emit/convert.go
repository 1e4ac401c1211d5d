package emit

import (
	"sort"

	"github.com/dave/jennifer/jen"

	"github.com/acpgen/acpgen/gen/ir"
	"github.com/acpgen/acpgen/gen/names"
)

// Conversions returns the file of package convert that converts, member by
// member, the object types whose shapes are the same in v1 and v2 (see
// ir.CompareTypes): for each, TypeToV2 and TypeToV1. A type qualifies when
// it and every type it holds are stable, without members of unstable
// features, members the schema does not name, or unions, so that the
// conversion carries every member in every build and cannot fail.
func Conversions(v1, v2 *ir.Package, header, importV1, importV2 string) File {
	pairs := convertiblePairs(v1, v2)
	f := jen.NewFile("convert")
	f.HeaderComment("// " + header)
	c := &converter{pairs: pairs, pkg: map[bool]string{true: importV2, false: importV1}, used: map[string]bool{}}
	names := make([]string, 0, len(pairs))
	for name := range pairs {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		p := pairs[name]
		c.function(f, p[0], p[1], true)
		c.function(f, p[1], p[0], false)
	}
	c.helpers(f)
	return File{Name: "types.go", Code: f}
}

// Converted returns the schema names of the types Conversions converts
// member by member: TypeToV1 and TypeToV2 exist for each.
func Converted(v1, v2 *ir.Package) map[string]bool {
	out := map[string]bool{}
	for name := range convertiblePairs(v1, v2) {
		out[name] = true
	}
	return out
}

// convertiblePairs returns the object types of v1 (by schema name, with
// their v2 counterpart) that Conversions converts: the same shape, and
// everything they hold convertible.
func convertiblePairs(v1, v2 *ir.Package) map[string][2]*ir.Type {
	by := map[string]*ir.Type{}
	for _, t := range v2.Types {
		by[t.Name] = t
	}
	pairs := map[string][2]*ir.Type{}
	for _, a := range v1.Types {
		b := by[a.Name]
		if b == nil || a.Kind != ir.Struct || !plainObject(a) || !plainObject(b) ||
			ir.CompareTypes(v1.Version, v2.Version, a, b) != "" {
			continue
		}
		// A name a template of the package declares is not the
		// conversion's to take.
		if names.ConvertClaimed(names.ConvertFunc(a.GoName, true)) || names.ConvertClaimed(names.ConvertFunc(a.GoName, false)) {
			continue
		}
		pairs[a.Name] = [2]*ir.Type{a, b}
	}
	// Drop the types whose members differ in Go (a pointer in one version
	// only).
	for name, p := range pairs {
		for _, f := range p[0].Fields {
			if g := fieldByJSON(p[1], f.JSONName); g == nil || pointer(f) != pointer(g) || f.NullMeans != g.NullMeans {
				delete(pairs, name)
				break
			}
		}
	}
	// Drop the types that hold a type that does not convert, until none does.
	for changed := true; changed; {
		changed = false
		for name, p := range pairs {
			for _, f := range p[0].Fields {
				if !convertibleRef(f.Type, pairs) {
					delete(pairs, name)
					changed = true
					break
				}
			}
		}
	}
	return pairs
}

// fieldByJSON returns the field of t named name in JSON, or nil.
func fieldByJSON(t *ir.Type, name string) *ir.Field {
	for _, f := range t.Fields {
		if f.JSONName == name {
			return f
		}
	}
	return nil
}

// plainObject reports whether t is a stable object type whose every member
// is stable and named.
func plainObject(t *ir.Type) bool {
	if t.Unstable || t.Extra {
		return false
	}
	for _, f := range t.Fields {
		if f.Unstable {
			return false
		}
	}
	return true
}

// convertibleRef reports whether a value of r converts: scalars, defined
// scalar types and enums by a Go conversion, free-form JSON by a copy, lists,
// maps and the object types of pairs by their elements and members.
func convertibleRef(r ir.Ref, pairs map[string][2]*ir.Type) bool {
	r = underlying(r)
	switch r.Kind {
	case ir.RefArray, ir.RefMap:
		return convertibleRef(*r.Elem, pairs)
	case ir.RefNamed:
		switch r.Type.Kind {
		case ir.Enum:
			return !r.Type.Unstable
		case ir.Struct:
			_, ok := pairs[r.Type.Name]
			return ok
		case ir.Raw:
			return r.Type.GoName == ""
		}
		return false
	}
	return true
}

// converter writes the conversion functions.
type converter struct {
	pairs map[string][2]*ir.Type
	pkg   map[bool]string // import path by direction: true for v2
	used  map[string]bool // the helpers called
}

// function writes the conversion of from to its counterpart to, toV2 saying
// which way.
func (c *converter) function(f *jen.File, from, to *ir.Type, toV2 bool) {
	name := names.ConvertFunc(from.GoName, toV2)
	target := map[bool]string{true: ir.V2, false: ir.V1}[toV2]
	f.Commentf("%s converts a %s %s to %s, member by member.", name, map[bool]string{true: ir.V1, false: ir.V2}[toV2], from.GoName, target)
	var values []jen.Code // in the order of the target's declaration
	for _, fb := range to.Fields {
		fa := fieldByJSON(from, fb.JSONName)
		values = append(values, jen.Line().Id(fb.GoName).Op(":").Add(c.field(fa, fb, jen.Id("v").Dot(fa.GoName), toV2)))
	}
	if len(values) > 0 {
		values = append(values, jen.Line())
	}
	f.Func().Id(name).Params(jen.Id("v").Qual(c.pkg[!toV2], from.GoName)).Qual(c.pkg[toV2], to.GoName).Block(
		jen.Return(jen.Qual(c.pkg[toV2], to.GoName).Values(values...)),
	)
}

// convertName names the function that converts t the given way.

// field converts the member x of field a to field b's Go type.
func (c *converter) field(a, b *ir.Field, x *jen.Statement, toV2 bool) jen.Code {
	switch {
	case a.NullMeans:
		return jen.Qual(c.pkg[toV2], "Nullable").Types(c.goType(b.Type, toV2)).Values(jen.Dict{
			jen.Id("Value"):   c.value(a.Type, b.Type, x.Clone().Dot("Value"), toV2),
			jen.Id("Present"): x.Clone().Dot("Present"),
			jen.Id("Null"):    x.Clone().Dot("Null"),
		})
	case pointer(a) && sameGoType(a.Type, b.Type):
		c.used["clonePointer"] = true
		return jen.Id("clonePointer").Call(x)
	case pointer(a):
		c.used["convertPointer"] = true
		return jen.Id("convertPointer").Call(x, c.elemFunc(a.Type, b.Type, toV2))
	}
	return c.value(a.Type, b.Type, x, toV2)
}

// sameGoType reports whether a and b are the same Go type in both packages:
// a predeclared scalar type.
func sameGoType(a, b ir.Ref) bool {
	switch a.Kind {
	case ir.RefString, ir.RefBool, ir.RefInt, ir.RefFloat:
		return a.Kind == b.Kind && a.Bits == b.Bits && a.Unsigned == b.Unsigned
	}
	return false
}

// value converts x, of a's Go type, to b's.
func (c *converter) value(a, b ir.Ref, x *jen.Statement, toV2 bool) jen.Code {
	ua := underlying(a)
	switch ua.Kind {
	case ir.RefArray:
		ub := underlying(b)
		if a.Kind == ir.RefArray && b.Kind == ir.RefArray && sameGoType(*ua.Elem, *ub.Elem) {
			return jen.Qual("slices", "Clone").Call(x)
		}
		c.used["convertSlice"] = true
		return c.convertType(b, toV2, jen.Id("convertSlice").Call(x, c.elemFunc(*ua.Elem, *ub.Elem, toV2)))
	case ir.RefMap:
		ub := underlying(b)
		if a.Kind == ir.RefMap && b.Kind == ir.RefMap && sameGoType(*ua.Elem, *ub.Elem) {
			return jen.Qual("maps", "Clone").Call(x)
		}
		c.used["convertMap"] = true
		return c.convertType(b, toV2, jen.Id("convertMap").Call(x, c.elemFunc(*ua.Elem, *ub.Elem, toV2)))
	case ir.RefRaw:
		return jen.Id("cloneRaw").Call(x)
	case ir.RefNamed:
		switch ua.Type.Kind {
		case ir.Struct:
			return jen.Id(names.ConvertFunc(ua.Type.GoName, toV2)).Call(x)
		case ir.Raw:
			return jen.Id("cloneRaw").Call(x)
		}
	}
	if sameGoType(a, b) {
		return x
	}
	return c.goType(b, toV2).Call(x)
}

// convertType converts x, a list or map of b's elements, to b's defined
// type where b has one.
func (c *converter) convertType(b ir.Ref, toV2 bool, x jen.Code) jen.Code {
	if b.Kind == ir.RefNamed {
		return c.goType(b, toV2).Call(x)
	}
	return x
}

// elemFunc is a function literal converting one value of a to b.
func (c *converter) elemFunc(a, b ir.Ref, toV2 bool) jen.Code {
	return jen.Func().Params(jen.Id("e").Add(c.goType(a, !toV2))).Add(c.goType(b, toV2)).Block(
		jen.Return(c.value(a, b, jen.Id("e"), toV2)),
	)
}

// goType is the Go type of r in the package of the given direction.
func (c *converter) goType(r ir.Ref, toV2 bool) *jen.Statement {
	switch r.Kind {
	case ir.RefNamed:
		if r.Type.Kind == ir.Raw && r.Type.GoName == "" {
			return jen.Qual(jsonPkg, "RawMessage")
		}
		return jen.Qual(c.pkg[toV2], r.Type.GoName)
	case ir.RefArray:
		return jen.Index().Add(c.goType(*r.Elem, toV2))
	case ir.RefMap:
		return jen.Map(jen.String()).Add(c.goType(*r.Elem, toV2))
	}
	return goType(r)
}

// helpers writes the generic helpers the conversions call.
func (c *converter) helpers(f *jen.File) {
	if c.used["convertPointer"] {
		c.convertPointer(f)
	}
	if c.used["clonePointer"] {
		c.clonePointer(f)
	}
	if c.used["convertSlice"] {
		c.convertSlice(f)
	}
	if c.used["convertMap"] {
		c.convertMap(f)
	}
}

func (c *converter) convertPointer(f *jen.File) {
	f.Comment("convertPointer converts the value in, if any, with convert.")
	f.Func().Id("convertPointer").Types(jen.Id("F"), jen.Id("T").Any()).
		Params(jen.Id("in").Op("*").Id("F"), jen.Id("convert").Func().Params(jen.Id("F")).Id("T")).Op("*").Id("T").Block(
		jen.If(jen.Id("in").Op("==").Nil()).Block(jen.Return(jen.Nil())),
		jen.Id("out").Op(":=").Id("convert").Call(jen.Op("*").Id("in")),
		jen.Return(jen.Op("&").Id("out")),
	)
}

func (c *converter) clonePointer(f *jen.File) {
	f.Comment("clonePointer copies the value in, if any.")
	f.Func().Id("clonePointer").Types(jen.Id("T").Any()).Params(jen.Id("in").Op("*").Id("T")).Op("*").Id("T").Block(
		jen.If(jen.Id("in").Op("==").Nil()).Block(jen.Return(jen.Nil())),
		jen.Id("out").Op(":=").Op("*").Id("in"),
		jen.Return(jen.Op("&").Id("out")),
	)
}

func (c *converter) convertSlice(f *jen.File) {
	f.Comment("convertSlice converts each item of in with convert; nil stays nil.")
	f.Func().Id("convertSlice").Types(jen.Id("F"), jen.Id("T").Any()).
		Params(jen.Id("in").Index().Id("F"), jen.Id("convert").Func().Params(jen.Id("F")).Id("T")).Index().Id("T").Block(
		jen.If(jen.Id("in").Op("==").Nil()).Block(jen.Return(jen.Nil())),
		jen.Id("out").Op(":=").Make(jen.Index().Id("T"), jen.Len(jen.Id("in"))),
		jen.For(jen.List(jen.Id("i"), jen.Id("e")).Op(":=").Range().Id("in")).Block(
			jen.Id("out").Index(jen.Id("i")).Op("=").Id("convert").Call(jen.Id("e")),
		),
		jen.Return(jen.Id("out")),
	)
}

func (c *converter) convertMap(f *jen.File) {
	f.Comment("convertMap converts each value of in with convert; nil stays nil.")
	f.Func().Id("convertMap").Types(jen.Id("F"), jen.Id("T").Any()).
		Params(jen.Id("in").Map(jen.String()).Id("F"), jen.Id("convert").Func().Params(jen.Id("F")).Id("T")).Map(jen.String()).Id("T").Block(
		jen.If(jen.Id("in").Op("==").Nil()).Block(jen.Return(jen.Nil())),
		jen.Id("out").Op(":=").Make(jen.Map(jen.String()).Id("T"), jen.Len(jen.Id("in"))),
		jen.For(jen.List(jen.Id("k"), jen.Id("e")).Op(":=").Range().Id("in")).Block(
			jen.Id("out").Index(jen.Id("k")).Op("=").Id("convert").Call(jen.Id("e")),
		),
		jen.Return(jen.Id("out")),
	)
}
