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

// valueVariantEncoder emits appendJSON of an untagged alternative that is
// not an object: a defined type over a scalar, list or map.
func valueVariantEncoder(f *jen.File, v *ir.Variant) {
	x := jen.Id("v")
	if kindOf(*v.Value) == encAppender {
		// V has none of the methods of the type it is defined over.
		x = jen.Parens(jen.Op("*").Add(goType(*v.Value))).Call(jen.Op("&").Id("v"))
	}
	call, fallible := valueEncode(*v.Value, x, false, true)
	body := jen.Return(call, jen.Nil())
	if fallible {
		body = jen.Return(call)
	}
	f.Func().Params(jen.Id("v").Id(v.GoName)).Id("appendJSON").Params(bufParam).Params(encodeResult...).Block(body)
	f.Line()
}
