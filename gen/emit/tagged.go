package emit

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/acpgen/acpgen/gen/ir"
)

// Tagged unions: the variant named by a tag member; the variant without tag
// (ir.UnionInfo.Default) and the unknown one (the fallback, Other) that
// keeps the object as received.

// fallback emits the Other variant of a tagged union: the tag, the fields
// every variant must carry, and the raw object.
/*
	type SessionUpdateOther struct {
		Tag string
		Raw json.RawMessage
	}
*/
func (e *emitter) fallback(out pair, t *ir.Type) {
	fallbackType(out.api, t)
	e.fallbackCodec(out.codec, t)
}

// fallbackType declares the Other variant of tagged union t.
func fallbackType(f *jen.File, t *ir.Type) {
	u := t.Union
	v := u.Fallback
	f.Add(comment(v.GoName, fmt.Sprintf("a variant of %s whose %q this package does not know: a custom one\n"+
		"(beginning with \"_\") or one from a newer protocol version. Raw keeps the object exactly as received.\n\n%s", t.GoName, u.Tag, v.Doc)))
	members := []jen.Code{
		jen.Comment(fmt.Sprintf("Tag is the %q value.", u.Tag)),
		jen.Id("Tag").String(),
	}
	for _, fl := range v.Fields {
		members = append(members, jen.Line(), comment(fl.GoName, fl.Doc), jen.Id(fl.GoName).Add(fieldType(fl)))
	}
	for _, emb := range v.Embeds {
		// Decoded from Raw, once the whole object is read.
		members = append(members, jen.Line(), comment("", fmt.Sprintf("%s holds what every unknown variant must carry, decoded from Raw.", emb.GoName)), jen.Id(emb.GoName).Id(emb.GoName))
	}
	members = append(members, jen.Line(),
		jen.Comment("Raw is the whole JSON object as received. MarshalJSON writes it back (compacted);"),
		jen.Comment("set it to nil to write Tag and the fields above instead."),
		jen.Id("Raw").Qual(jsonPkg, "RawMessage"),
	)
	f.Type().Id(v.GoName).Struct(members...)
	f.Line()
	f.Func().Params(jen.Id("v").Op("*").Id(v.GoName)).Id(t.Union.Marker).Params().String().Block(
		jen.If(jen.Id("v").Op("==").Nil()).Block(jen.Return(jen.Lit(""))),
		jen.Return(jen.Id("v").Dot("Tag")))
	f.Line()
	f.Comment("IsCustom reports whether the tag is implementation-specific: it begins with \"_\".")
	f.Func().Params(jen.Id("v").Op("*").Id(v.GoName)).Id("IsCustom").Params().Bool().Block(
		jen.Return(jen.Qual("strings", "HasPrefix").Call(jen.Id("v").Dot("Tag"), jen.Lit("_"))),
	)
	f.Line()
}

// fallbackCodec emits the encoders and decoders of the Other variant of
// tagged union t: the object as received, or else the tag and the fields.
func (e *emitter) fallbackCodec(f *jen.File, t *ir.Type) {
	u := t.Union
	v := u.Fallback
	var embeds []string
	for _, emb := range v.Embeds {
		embeds = append(embeds, emb.GoName)
	}
	e.fallbackRaw(f, t)
	tag := &ir.Field{JSONName: u.Tag, GoName: "Tag", Type: ir.Ref{Kind: ir.RefString}, Required: true, Pointer: v.Pointer}
	fields := append([]*ir.Field{tag}, v.Fields...)
	objectEncoders(f, encodeSpec{goName: v.GoName, fields: fields, embeds: embeds, rawFirst: []jen.Code{
		jen.If(jen.Id("v").Dot("Raw").Op("!=").Nil()).Block(jen.Return(jen.Id("appendRaw").Call(jen.Id("b"), jen.Id("v").Dot("Raw")))),
	}})
	bits := requiredBits(fields)
	after := []jen.Code{
		jen.Id("v").Dot("Raw").Op("=").Append(jen.Qual(jsonPkg, "RawMessage").Call(jen.Nil()), jen.Id("d").Dot("in").Index(jen.Id("start").Op(":").Id("d").Dot("InputOffset").Call()).Op("...")),
	}
	for _, emb := range embeds {
		// if err := v.XOtherFields.UnmarshalJSON(v.Raw); err != nil { return err }
		after = append(after, jen.If(jen.Err().Op(":=").Id("v").Dot(emb).Dot("UnmarshalJSON").Call(jen.Id("v").Dot("Raw")), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())))
	}
	objectDecoders(f, objectSpec{goName: v.GoName, fields: fields, bits: bits, unmarshal: true, seeded: true, after: after})
}

// keepOther ends decodeRest with the unknown variant other.
func keepOther(t *ir.Type, other jen.Code) []jen.Code {
	if len(t.Union.OtherShared) > 0 {
		return []jen.Code{jen.Return(jen.Id("u").Dot("keepOther").Call(other))}
	}
	return []jen.Code{jen.Id("u").Dot("Value").Op("=").Add(other), jen.Return(jen.Nil())}
}

// keepOtherMethod emits keepOther, which sets an unknown variant whose
// members every variant shares (ir.UnionInfo.OtherShared) were decoded and
// checked as on a known variant: where decoding changed one (a default on
// error or null, invalid items dropped), Raw holds it as decoded, so that
// the object is not written back with a value the schema rejects.
/*
	func (u *CreateElicitationRequest) keepOther(other *CreateElicitationRequestOther) error {
		b, err := other.appendMembers(nil)
		if err == nil {
			b, err = (*createElicitationRequestFields)(u).appendMembers(b)
		}
		if err != nil {
			return err
		}
		other.Raw = patchShared(other.Raw, b, "_meta", "message", …)
		u.Value = other
		return nil
	}
*/
func keepOtherMethod(f *jen.File, t *ir.Type) {
	u := t.Union
	if len(u.OtherShared) == 0 {
		return
	}
	body := []jen.Code{jen.List(jen.Id("b"), jen.Err()).Op(":=").Id("other").Dot("appendMembers").Call(jen.Nil())}
	if len(t.Fields) > 0 {
		body = append(body, jen.If(jen.Err().Op("==").Nil()).Block(
			jen.List(jen.Id("b"), jen.Err()).Op("=").Parens(jen.Op("*").Id(t.Union.Shared)).Call(jen.Id("u")).Dot("appendMembers").Call(jen.Id("b"))))
	}
	body = append(body,
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		jen.Id("other").Dot("Raw").Op("=").Id("patchShared").Call(append([]jen.Code{jen.Id("other").Dot("Raw"), jen.Id("b")}, lits(u.OtherShared)...)...),
		jen.Id("u").Dot("Value").Op("=").Id("other"),
		jen.Return(jen.Nil()),
	)
	f.Comment("keepOther sets the unknown variant other, whose members that every variant shares were decoded")
	f.Comment("as on a known one: Raw holds the ones decoding changed (a default) as decoded.")
	f.Func().Params(jen.Id("u").Op("*").Id(t.GoName)).Id("keepOther").Params(jen.Id("other").Op("*").Id(u.Fallback.GoName)).Error().Block(body...)
	f.Line()
}
