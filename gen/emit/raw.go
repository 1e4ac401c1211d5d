package emit

import (
	"github.com/dave/jennifer/jen"

	"github.com/acpgen/acpgen/gen/ir"
)

// Unknown variants inside payloads. A variant's payload can itself be a
// union (state_update carries a StateUpdate, whose idle variant carries an
// IdleStateUpdate); when the innermost value is an unknown variant, its Raw
// is the whole object as received, outer tags included. Such a value is
// written back as that Raw, not wrapped in the outer tags again. Unions that
// can hold one, and their fallbacks, have rawObject(); Go promotes it to the
// variants that embed them. check.Lower decides which unions can
// (ir.UnionInfo.Carrier, HoldsRaw).

/*
	func (u StateUpdate) rawObject() json.RawMessage {
		if h, ok := u.Value.(rawHolder); ok {
			return h.rawObject()
		}
		return nil
	}
*/
func (e *emitter) rawMethod(f *jen.File, t *ir.Type) {
	if !t.Union.Carrier {
		return
	}
	f.Comment("rawObject returns the object as received when the variant, at any depth, is unknown.")
	f.Func().Params(jen.Id("u").Id(t.GoName)).Id("rawObject").Params().Qual(jsonPkg, "RawMessage").Block(
		jen.If(jen.List(jen.Id("h"), jen.Id("ok")).Op(":=").Id("u").Dot("Value").Assert(jen.Id("rawHolder")), jen.Id("ok")).Block(
			jen.Return(jen.Id("h").Dot("rawObject").Call())),
		jen.Return(jen.Nil()),
	)
	f.Line()
}

// fallbackRaw gives a fallback rawObject when its union needs it.
func (e *emitter) fallbackRaw(f *jen.File, t *ir.Type) {
	if !t.Union.Carrier && !t.Union.Objects {
		return
	}
	fb := t.Union.Fallback
	f.Func().Params(jen.Id("v").Op("*").Id(fb.GoName)).Id("rawObject").Params().Qual(jsonPkg, "RawMessage").Block(jen.Return(jen.Id("v").Dot("Raw")))
	f.Line()
}

// rawFirst returns statements that write a payload's raw unknown variant as
// the whole variant.
func (e *emitter) rawFirst(v *ir.Variant) []jen.Code {
	var out []jen.Code
	for _, emb := range v.Embeds {
		if emb.Kind == ir.Union && emb.Union.Carrier {
			out = append(out, jen.If(jen.Id("raw").Op(":=").Id("v").Dot(emb.GoName).Dot("rawObject").Call(), jen.Id("raw").Op("!=").Nil()).Block(
				jen.Return(jen.Id("appendRaw").Call(jen.Id("b"), jen.Id("raw")))))
		}
	}
	return out
}
