package emit

import (
	"sort"
	"strings"

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

// unstable emits what gate set g adds besides its own types, which Files
// emits: the fields it adds to stable structs, the variants it adds to
// stable unions, its methods, constructors and sides.
func (e *emitter) unstable(out pair, g *ir.GateSet) {
	for _, x := range byTypeName(g.Extensions) {
		extensionStruct(out, x, g.Key)
	}
	variants := append([]ir.GatedVariants(nil), g.Variants...)
	sort.SliceStable(variants, func(i, j int) bool { return variants[i].Union.GoName < variants[j].Union.GoName })
	for _, gv := range variants {
		e.gatedVariants(out, gv)
	}
	// A stable enum has no unstable values: check makes sure.
	e.unstableMethods(out.api, g.Methods)
	e.constructors(out.api, g.Key)
	e.unstableSides(out.api, g.Key)
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
		extensionOff(out, x, g.Key)
	}
	return len(g.Extensions) > 0
}
