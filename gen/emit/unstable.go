package emit

import (
	"fmt"
	"sort"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/acpgen/acpgen/gen/ir"
)

// The unstable surface: each set of features (a Gate key) gets one file
// behind `//go:build unstable_a || unstable_b || unstable` holding its types,
// the variants, enum values and methods it adds to stable ones, and the
// fields it adds to stable structs. Those fields live in an embedded struct
// that a second file, behind the negated constraint, declares empty; Go
// promotes the fields, so they read and write as ordinary fields.

// gateOf returns a Gate with the given key.
func gateOf(key string) ir.Gate {
	if key == ir.Umbrella {
		return ir.Gate{Unstable: true}
	}
	return ir.Gate{Unstable: true, Features: strings.Split(key, "+")}
}

// constraint is the build expression that enables g.
func constraint(g ir.Gate) string {
	return strings.Join(g.Tags(), " || ")
}

// tagList names the tags of g for docs: "unstable_x or unstable".
func tagList(g ir.Gate) string {
	return strings.Join(g.Tags(), " or ")
}

// fileName is the file of a gate key: unstable.go, unstable_nes.go,
// unstable_nes_and_session_fork.go; suffix goes before ".go".
func fileName(key, suffix string) string {
	if key == ir.Umbrella {
		return ir.Umbrella + suffix + ".go"
	}
	var parts []string
	for _, f := range strings.Split(key, "+") {
		parts = append(parts, strings.TrimPrefix(f, ir.FeaturePrefix))
	}
	return ir.FeaturePrefix + strings.Join(parts, "_and_") + suffix + ".go"
}

// unstable emits everything that gate set g adds.
func (e *emitter) unstable(out pair, g *ir.GateSet) {
	f, key := out.api, g.Key
	types := append([]*ir.Type(nil), g.Types...)
	sort.SliceStable(types, func(i, j int) bool { return types[i].GoName < types[j].GoName })
	for _, t := range types {
		switch t.Kind {
		case ir.Enum:
			e.enum(out, t)
		case ir.Union:
			e.union(out, t)
		default:
			e.typeDecl(out, t)
		}
	}
	for _, x := range byTypeName(g.Extensions) {
		t, ext := x.Type, x.Type.Extensions[key]
		f.Comment(fmt.Sprintf("%s holds the fields of %s that the %s build tag adds.", ext, t.GoName, tagList(gateOf(key))))
		f.Type().Id(ext).Struct(structFields(x.Fields)...)
		f.Line()
		objectDecoders(out.codec, objectSpec{goName: ext, fields: x.Fields, bits: requiredBits(t.Fields), memberOnly: true})
		objectEncoders(out.codec, encodeSpec{goName: ext, fields: x.Fields, membersOnly: true})
	}
	variants := append([]ir.GatedVariants(nil), g.Variants...)
	sort.SliceStable(variants, func(i, j int) bool { return variants[i].Union.GoName < variants[j].Union.GoName })
	for _, gv := range variants {
		t := gv.Union
		var reg []jen.Code
		for _, v := range gv.Variants {
			e.knownVariant(out, t, v, tagMember(t.Union.Tag, v.Tag))
			reg = append(reg, jen.Id(t.Union.Registry).Index(jen.Lit(v.Tag)).Op("=").Func().Params().Id(t.Union.Interface).Block(
				jen.Return(jen.New(jen.Id(v.GoName)))))
		}
		out.codec.Func().Id("init").Params().Block(reg...)
		out.codec.Line()
	}
	// A stable enum has no unstable values: check makes sure.
	e.unstableMethods(f, g.Methods)
	e.constructors(f, key)
	e.unstableSides(f, key)
}

// unstableCodec reports whether gate set g adds anything to the codec: a
// type with a codec (a struct, an enum, a union, a scalar defined type),
// the fields of an extension struct or variants.
func unstableCodec(g *ir.GateSet) bool {
	if len(g.Extensions) > 0 || len(g.Variants) > 0 {
		return true
	}
	for _, t := range g.Types {
		switch t.Kind {
		case ir.Struct, ir.Enum, ir.Union:
			return true
		case ir.Named:
			if isScalar(t) {
				return true
			}
		}
	}
	return false
}

// byTypeName sorts extensions by the Go name of their type.
func byTypeName(exts []ir.Extension) []ir.Extension {
	out := append([]ir.Extension(nil), exts...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Type.GoName < out[j].Type.GoName })
	return out
}

// extensionsOff declares empty the extension structs of gate set g, for
// builds without its tags; it reports whether there were any.
func (e *emitter) extensionsOff(out pair, g *ir.GateSet) bool {
	for _, x := range byTypeName(g.Extensions) {
		ext := x.Type.Extensions[g.Key]
		out.api.Comment(fmt.Sprintf("%s is empty without the %s build tag.", ext, tagList(gateOf(g.Key))))
		out.api.Type().Id(ext).Struct()
		out.api.Line()
		f := out.codec
		memberDecoder(f, ext, nil, nil, nil)
		objectEncoders(f, encodeSpec{goName: ext, membersOnly: true})
		if hasRequired(x.Fields) {
			f.Func().Params(jen.Op("*").Id(ext)).Id("missing").Params(jen.Uint64()).Error().Block(jen.Return(jen.Nil()))
			f.Line()
		}
	}
	return len(g.Extensions) > 0
}
