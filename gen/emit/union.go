package emit

import (
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/acpgen/acpgen/gen/ir"
)

// Unions, tagged or not: the union struct (its shared fields and the
// variant, Value) and the interface its variants implement; the encoders,
// through which the variant writes itself; and the type through which the
// shared fields are decoded. What tells the variants apart is in tagged.go
// and untagged.go, the variants themselves in variant.go.
//
// A union whose variants are all objects (ir.UnionInfo.Objects) writes
// the variant's members (its tag first) and then the shared fields into
// one object; an untagged union with other alternatives writes the value
// of the alternative it holds.

// union emits one union type, its encoders, its decoder and its variants.
func (e *emitter) union(out pair, t *ir.Type) {
	e.unionType(out.api, t)
	e.rawMethod(out.codec, t)
	e.unionEncoders(out.codec, t)
	if t.Union.Tag != "" {
		e.tagged(out, t)
	} else {
		e.untagged(out, t)
	}
	e.sharedFields(out.codec, t)
}

// variantRef is how a variant is written in a type switch.
func variantRef(v *ir.Variant) string {
	if v.IsObject() || v.JSON == ir.KindAny {
		return "*" + v.GoName
	}
	return v.GoName
}

// bullets renders items as a doc comment list.
func bullets(items []string) string {
	return "\n  - " + strings.Join(items, "\n  - ")
}

/*
	type SessionUpdate struct {
		…shared fields…
		Value SessionUpdateVariant `json:"-"`
	}

type SessionUpdateVariant interface{ sessionUpdateTag() string }
*/
func (e *emitter) unionType(f *jen.File, t *ir.Type) {
	u := t.Union
	var list []string
	for _, v := range u.All() {
		ref := variantRef(v)
		if v.Unstable && !t.Unstable {
			ref += fmt.Sprintf(" (with the %s build tag)", tagList(v.Gate))
		}
		list = append(list, ref)
	}
	f.Add(typeDoc(t))
	members := members(t)
	if len(members) > 0 {
		members = append(members, jen.Line())
	}
	valueDoc := "Value is the variant, one of:" + bullets(list)
	if u.Tag != "" {
		valueDoc = fmt.Sprintf("Value is the variant selected by %q, one of:%s", u.Tag, bullets(list))
	}
	members = append(members, comment("", valueDoc), jen.Id("Value").Id(t.Union.Interface).Tag(map[string]string{"json": "-"}))
	f.Type().Id(t.GoName).Struct(members...)
	f.Line()
	f.Add(comment("", fmt.Sprintf("%s is implemented by the variants of %s:%s", t.Union.Interface, t.GoName, bullets(list))))
	encoder := jen.Id("appendJSON").Params(jen.Index().Byte()).Params(encodeResult...)
	if u.Objects {
		encoder = jen.Id("appendMembers").Params(jen.Index().Byte()).Params(encodeResult...)
	}
	if u.Tag != "" {
		f.Type().Id(t.Union.Interface).Interface(jen.Id(t.Union.Marker).Params().String(), encoder)
		f.Line()
		f.Comment(fmt.Sprintf("Tag returns the %q value of the variant, or \"\" for none.", u.Tag))
		f.Func().Params(jen.Id("u").Id(t.GoName)).Id("Tag").Params().String().Block(
			jen.If(jen.Id("u").Dot("Value").Op("==").Nil()).Block(jen.Return(jen.Lit(""))),
			jen.Return(jen.Id("u").Dot("Value").Dot(t.Union.Marker).Call()),
		)
	} else {
		f.Type().Id(t.Union.Interface).Interface(jen.Id(t.Union.Marker).Params(), encoder)
	}
	f.Line()
}

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

// sharedFields emits the decoders of the fields every variant of a union shares.
func (e *emitter) sharedFields(f *jen.File, t *ir.Type) {
	if len(t.Fields) == 0 {
		return
	}
	spec := typeSpec(t, t.Union.Shared)
	f.Comment(fmt.Sprintf("%s decodes the fields that every variant of %s has.", t.Union.Shared, t.GoName))
	f.Type().Id(t.Union.Shared).Id(t.GoName)
	f.Line()
	objectDecoders(f, spec)
	enc := structEncodeSpec(t, t.Union.Shared)
	enc.membersOnly = true
	objectEncoders(f, enc)
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
