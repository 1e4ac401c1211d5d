package emit

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/acpgen/acpgen/gen/ir"
)

// Variants: the object variants of unions of either kind, each a struct of
// its own fields and embedded payloads with its codec, and what the
// unknown variants and the variants that embed a union need to write back
// an unknown variant's object as received.

// knownVariant emits a variant struct and its marker, and in the codec its
// encoders and decoders. check makes sure that a variant with a codec of
// its own is an object whose payloads have members, and that one of
// several parts embeds structs.
func (e *emitter) knownVariant(out pair, t *ir.Type, v *ir.Variant, tagMember string) {
	f := out.api
	switch {
	case v.Tag != "":
		f.Add(comment(v.GoName, fmt.Sprintf("the %q variant of %s.\n\n%s", v.Tag, t.GoName, v.Doc)))
	case t.Union.UnknownDefault:
		f.Add(comment(v.GoName, fmt.Sprintf("the variant of %s without %q, or with a %q this package does not\n"+
			"know, which the schema reads as this variant too.\n\n%s", t.GoName, t.Union.Tag, t.Union.Tag, v.Doc)))
	case t.Union.Tag != "":
		f.Add(comment(v.GoName, fmt.Sprintf("the variant of %s without %q.\n\n%s", t.GoName, t.Union.Tag, v.Doc)))
	default:
		f.Add(comment(v.GoName, fmt.Sprintf("the %s alternative of %s.\n\n%s", v.Name, t.GoName, v.Doc)))
	}
	var members []jen.Code
	for _, emb := range v.Embeds {
		members = append(members, jen.Id(emb.GoName))
	}
	members = append(members, structFields(v.Fields)...)
	keepsTag := v == t.Union.Default && t.Union.DefaultTag
	if keepsTag {
		members = append(members, jen.Line(),
			jen.Comment(fmt.Sprintf("Tag is the %q value the variant was decoded with, written back when not \"\";", t.Union.Tag)),
			jen.Comment(fmt.Sprintf("\"\" when the object has none. The schema's branch leaves %q free.", t.Union.Tag)),
			jen.Id("Tag").String().Tag(map[string]string{"json": "-"}))
	}
	f.Type().Id(v.GoName).Struct(members...)
	f.Line()
	if keepsTag {
		f.Func().Params(jen.Id("v").Op("*").Id(v.GoName)).Id(t.Union.Marker).Params().String().Block(
			jen.If(jen.Id("v").Op("==").Nil()).Block(jen.Return(jen.Lit(""))),
			jen.Return(jen.Id("v").Dot("Tag")))
	} else if t.Union.Tag != "" {
		f.Func().Params(jen.Op("*").Id(v.GoName)).Id(t.Union.Marker).Params().String().Block(jen.Return(jen.Lit(v.Tag)))
	} else {
		f.Func().Params(jen.Op("*").Id(v.GoName)).Id(t.Union.Marker).Params().Block()
	}
	f.Line()
	if inner := v.InnerUnion(); inner != nil && v.InnerTag != "" {
		f.Comment(fmt.Sprintf("Tag returns %q, the variant's tag in %s; %s returns the %q of the %s it holds.", v.Tag, t.GoName, v.InnerTag, inner.Union.Tag, v.Embeds[0].GoName))
		f.Func().Params(jen.Op("*").Id(v.GoName)).Id("Tag").Params().String().Block(jen.Return(jen.Lit(v.Tag)))
		f.Line()
		f.Comment(fmt.Sprintf("%s returns the %q of the %s the variant holds, or \"\" for none.", v.InnerTag, inner.Union.Tag, v.Embeds[0].GoName))
		f.Func().Params(jen.Id("v").Op("*").Id(v.GoName)).Id(v.InnerTag).Params().String().Block(
			jen.Return(jen.Id("v").Dot(v.Embeds[0].GoName).Dot("Tag").Call()))
		f.Line()
	}
	if t.Union.Tag == "" && len(v.Fields) == 0 && len(v.Embeds) == 1 {
		// The embedded payload encodes and decodes the variant as it is;
		// a struct has no appendJSON of its own.
		if emb := v.Embeds[0]; !t.Union.Objects && kindOf(ir.Ref{Kind: ir.RefNamed, Type: emb}) == encObject {
			out.codec.Func().Params(receiver(v.GoName)).Id("appendJSON").Params(bufParam).Params(encodeResult...).Block(
				jen.Return(jen.Id("encodeObject").Call(jen.Op("&").Id(recvName).Dot(emb.GoName), jen.Id("b"))))
			out.codec.Line()
		}
		return
	}
	f = out.codec
	enc := encodeSpec{goName: v.GoName, tag: tagMember, fields: v.Fields, rawFirst: e.rawFirst(v)}
	if keepsTag {
		enc.keptTag = t.Union.Tag
	}
	for _, emb := range v.Embeds {
		enc.embeds = append(enc.embeds, emb.GoName)
	}
	objectEncoders(f, enc)
	switch {
	case len(v.Embeds) == 0:
		objectDecoders(f, objectSpec{goName: v.GoName, fields: v.Fields, bits: requiredBits(v.Fields), unmarshal: true})
	case len(v.Embeds) > 1 || len(v.Fields) > 0:
		e.partsDecoder(f, v)
	}
}

// partsDecoder decodes each embedded payload and the own fields from the
// same object: each member goes to the first part that knows its name.
/*
	func (v *X) decodeRest(d *decoder, start int64, _ []string) error {
		var seen [3]uint64
		if err := d.members(func(name []byte) (bool, error) {
			if ok, err := v.A.decodeMember(d, name, &seen[0]); ok || err != nil {
				return ok, err
			}
			…
			return v.decodeMember(d, name, &seen[2])
		}); err != nil {
			return err
		}
		…checks…
	}
*/
func (e *emitter) partsDecoder(f *jen.File, v *ir.Variant) {
	bits := requiredBits(v.Fields)
	memberDecoder(f, v.GoName, v.Fields, bits, nil)
	if hasRequired(v.Fields) {
		missingDecoder(f, v.GoName, v.Fields, bits, nil)
	}
	seen := func(i int) jen.Code { return jen.Op("&").Id("seen").Index(jen.Lit(i)) }
	var try, checks []jen.Code
	for i, emb := range v.Embeds {
		def := emb
		for def.Kind == ir.Named && def.Underlying.Kind == ir.RefNamed {
			def = def.Underlying.Type // a struct: check makes sure
		}
		try = append(try, jen.If(jen.List(jen.Id("ok"), jen.Err()).Op(":=").Id(recvName).Dot(emb.GoName).Dot("decodeMember").Call(jen.Id("d"), jen.Id("name"), seen(i)),
			jen.Id("ok").Op("||").Err().Op("!=").Nil()).Block(jen.Return(jen.Id("ok"), jen.Err())))
		if spec := typeSpec(def, def.GoName); hasRequired(spec.fields) || extsRequired(spec.exts) {
			checks = append(checks, jen.If(jen.Err().Op(":=").Id(recvName).Dot(emb.GoName).Dot("missing").Call(jen.Id("seen").Index(jen.Lit(i))), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())))
		}
	}
	own := len(v.Embeds)
	try = append(try, jen.Return(jen.Id(recvName).Dot("decodeMember").Call(jen.Id("d"), jen.Id("name"), seen(own))))
	if hasRequired(v.Fields) {
		checks = append(checks, jen.If(jen.Err().Op(":=").Id(recvName).Dot("missing").Call(jen.Id("seen").Index(jen.Lit(own))), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())))
	}
	body := []jen.Code{
		jen.Var().Id("seen").Index(jen.Lit(own + 1)).Uint64(),
		jen.If(jen.Err().Op(":=").Id("d").Dot("members").Call(jen.Func().Params(jen.Id("name").Index().Byte()).Params(memberResult...).Block(try...)), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
	}
	body = append(body, checks...)
	body = append(body, jen.Return(jen.Nil()))
	f.Comment("decodeRest decodes every part of the variant from the same object.")
	f.Func().Params(receiver(v.GoName)).Id("decodeRest").Params(restParams(false)...).Error().Block(body...)
	f.Line()
	unmarshalMethod(f, v.GoName)
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

// fallbackRaw gives a fallback rawObject when its union needs it.
func (e *emitter) fallbackRaw(f *jen.File, t *ir.Type) {
	if !t.Union.Carrier && !t.Union.Objects {
		return
	}
	fb := t.Union.Fallback
	f.Func().Params(jen.Id("v").Op("*").Id(fb.GoName)).Id("rawObject").Params().Qual(jsonPkg, "RawMessage").Block(jen.Return(jen.Id("v").Dot("Raw")))
	f.Line()
}
