package emit

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/acpgen/acpgen/gen/ir"
)

// The encoders of unions. A union whose variants are all objects
// (ir.UnionInfo.Objects) writes the variant's members (its tag first) and
// then the shared fields into one object; an untagged union with other
// alternatives writes the value of the alternative it holds.

// unionEncoders emits the encoders of union t: the variant writes itself,
// with the shared fields after its members.
/*
	func (u *SessionUpdate) appendMembers(b []byte) ([]byte, error) {
		if u.Value == nil { return nil, errors.New(…) }
		return u.Value.appendMembers(b)
	}

	func (u *SessionUpdate) appendJSON(b []byte) ([]byte, error) {
		if h, ok := u.Value.(rawHolder); ok { … return appendRaw(b, raw) }
		start := len(b)
		b, err := u.appendMembers(b)
		return closeObject(b, start, err)
	}
*/
func (e *emitter) unionEncoders(f *jen.File, t *ir.Type) {
	isNil := jen.If(jen.Id("u").Dot("Value").Op("==").Nil()).Block(
		jen.Return(jen.Nil(), jen.Qual("errors", "New").Call(jen.Lit(fmt.Sprintf("%s: %s.Value is nil", e.p.Name, t.GoName)))))
	recv := jen.Id("u").Op("*").Id(t.GoName)
	if !t.Union.Objects {
		// Neither a tag nor shared fields: check makes sure.
		f.Func().Params(recv).Id("appendJSON").Params(bufParam).Params(encodeResult...).Block(
			isNil, jen.Return(jen.Id("u").Dot("Value").Dot("appendJSON").Call(jen.Id("b"))))
		f.Line()
		marshalMethod(f, t.GoName, "u")
		return
	}
	members := []jen.Code{isNil}
	if len(t.Fields) > 0 {
		members = append(members,
			jen.List(jen.Id("b"), jen.Err()).Op(":=").Id("u").Dot("Value").Dot("appendMembers").Call(jen.Id("b")),
			jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
			jen.Return(jen.Parens(jen.Op("*").Id(t.Union.Shared)).Call(jen.Id("u")).Dot("appendMembers").Call(jen.Id("b"))))
	} else {
		members = append(members, jen.Return(jen.Id("u").Dot("Value").Dot("appendMembers").Call(jen.Id("b"))))
	}
	f.Comment("appendMembers appends the members of the variant, each after a comma.")
	f.Func().Params(recv).Id("appendMembers").Params(bufParam).Params(encodeResult...).Block(members...)
	f.Line()
	var body []jen.Code
	if t.Union.HoldsRaw {
		// An unknown variant's Raw is the whole object, shared fields included.
		body = append(body, jen.If(
			jen.List(jen.Id("h"), jen.Id("ok")).Op(":=").Id("u").Dot("Value").Assert(jen.Id("rawHolder")),
			jen.Id("ok"),
		).Block(jen.If(jen.Id("raw").Op(":=").Id("h").Dot("rawObject").Call(), jen.Id("raw").Op("!=").Nil()).Block(
			jen.Return(jen.Id("appendRaw").Call(jen.Id("b"), jen.Id("raw"))))))
	}
	body = append(body,
		jen.Id("start").Op(":=").Len(jen.Id("b")),
		jen.List(jen.Id("b"), jen.Err()).Op(":=").Id("u").Dot("appendMembers").Call(jen.Id("b")),
		jen.Return(jen.Id("closeObject").Call(jen.Id("b"), jen.Id("start"), jen.Err())),
	)
	doc := "appendJSON writes the variant"
	if len(t.Fields) > 0 {
		doc += " and the shared fields as one object"
	}
	if t.Union.HoldsRaw {
		doc += "; an unknown variant that has Raw is written as is"
	}
	f.Comment(doc + ".")
	f.Func().Params(recv).Id("appendJSON").Params(bufParam).Params(encodeResult...).Block(body...)
	f.Line()
	marshalMethod(f, t.GoName, "u")
}

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
