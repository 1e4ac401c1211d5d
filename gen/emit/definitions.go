package emit

import (
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/acpgen/acpgen/gen/ir"
)

// Definitions: a test file maps each $defs entry of the schema to a new
// value of its Go type, so that tests can decode a value of any definition
// by its schema name (the differential test against the TypeScript SDK
// does). The unstable definitions are added by test files behind their
// build constraints.

// definitions fills the table with the stable definitions; it reports
// false when there are none.
func (e *emitter) definitions(f *jen.File) bool {
	if !e.hasDefinitions() {
		return false
	}
	f.Comment("definitions holds a constructor of the Go type of each $defs entry, by schema name;")
	f.Comment("the files of the unstable build tags add theirs.")
	f.Var().Id("definitions").Op("=").Map(jen.String()).Func().Params().Any().Values(jen.DictFunc(func(d jen.Dict) {
		for _, t := range e.definitionTypes("") {
			d[jen.Lit(t.Name)] = newValue(t)
		}
	}))
	return true
}

// hasDefinitions reports whether the package has a $defs entry, stable or
// not: the table is declared, empty when all of them are unstable (a v2
// that only the unstable file has), whenever a file adds to it.
func (e *emitter) hasDefinitions() bool {
	for _, t := range e.p.Types {
		if isDefinition(t) {
			return true
		}
	}
	return false
}

// unstableDefinitions adds the definitions of gate key to the table; it
// reports false when there are none.
func (e *emitter) unstableDefinitions(f *jen.File, key string) bool {
	var body []jen.Code
	for _, t := range e.definitionTypes(key) {
		body = append(body, jen.Id("definitions").Index(jen.Lit(t.Name)).Op("=").Add(newValue(t)))
	}
	if len(body) == 0 {
		return false
	}
	f.Func().Id("init").Params().Block(body...)
	return true
}

// newValue is `func() any { return new(T) }`.
func newValue(t *ir.Type) jen.Code {
	return jen.Func().Params().Any().Block(jen.Return(jen.New(jen.Id(t.GoName))))
}

// definitionTypes are the types of gate key ("" for stable) that are
// $defs entries, not types made up for inline schemas.
func (e *emitter) definitionTypes(key string) []*ir.Type {
	var out []*ir.Type
	for _, t := range e.p.Types {
		if t.Key() == key && isDefinition(t) {
			out = append(out, t)
		}
	}
	return out
}

// isDefinition reports whether t is a $defs entry, not a type made up for
// an inline schema.
func isDefinition(t *ir.Type) bool {
	return strings.HasPrefix(t.Pointer, "/$defs/") && strings.Count(t.Pointer, "/") == 2
}
