package emit

import (
	"github.com/dave/jennifer/jen"

	"github.com/acpgen/acpgen/gen/ir"
)

// Named and raw types: a defined type over a scalar, a list or a map (with
// the codec of a scalar's bare value), another name for a struct or a
// union, and free-form JSON.

// namedType emits defined type t and, when its JSON is a scalar, its codec.
func namedType(out pair, t *ir.Type) {
	out.api.Add(typeDoc(t))
	if r := t.Underlying; r.Kind == ir.RefNamed && (r.Type.Kind == ir.Struct || r.Type.Kind == ir.Union) {
		// Another name for a type with methods: an alias keeps them.
		out.api.Type().Id(t.GoName).Op("=").Id(r.Type.GoName)
	} else {
		out.api.Type().Id(t.GoName).Add(goType(*r))
	}
	out.api.Line()
	if isScalar(t) {
		scalarCodecs(out.codec, t)
	}
}

// rawType emits free-form JSON type t, another name for json.RawMessage.
func rawType(f *jen.File, t *ir.Type) {
	f.Add(typeDoc(t))
	f.Type().Id(t.GoName).Op("=").Qual(jsonPkg, "RawMessage")
	f.Line()
}
