package emit

import (
	"fmt"
	"sort"

	"github.com/dave/jennifer/jen"

	"github.com/acpgen/acpgen/gen/ir"
)

// Tagged unions: the variant named by a tag member; the variant without tag
// (ir.UnionInfo.Default) and the unknown one (the fallback, Other) that
// keeps the object as received.

// tagged emits the decoders of tagged union t, its variants and its
// unknown variant.
func (e *emitter) tagged(out pair, t *ir.Type) {
	u := t.Union
	taggedDecoder(out.codec, t)
	keepOtherMethod(out.codec, t)
	if t.GatedVariants() {
		out.codec.Comment(fmt.Sprintf("%s holds the variants of the unstable surface that build tags include, by tag.", u.Registry))
		out.codec.Var().Id(u.Registry).Op("=").Map(jen.String()).Func().Params().Id(u.Interface).Values()
		out.codec.Line()
	}
	for _, v := range t.OwnVariants() {
		e.knownVariant(out, t, v, tagMember(u.Tag, v.Tag))
	}
	if u.Default != nil {
		e.knownVariant(out, t, u.Default, "")
	}
	e.fallback(out, t)
}

// taggedDecoder emits decodeRest, which reads the tag, then the shared
// fields, then the variant the tag names; and on top of it decodeJSON and
// UnmarshalJSON, with the members the variants leave to the union.
/*
	func (u *SessionUpdate) decodeRest(d *decoder, start int64, _ []string) error {
		tag, found, rest, err := d.tagOf("sessionUpdate", start)
		…
		var v SessionUpdateVariant
		switch string(tag) {
		case "tool_call":
			v = new(SessionUpdateToolCall)
		…
		default:
			v = new(SessionUpdateOther)
		}
		if err := d.variant(v, start, rest); err != nil {
			return err
		}
		u.Value = v
		return nil
	}
*/
func taggedDecoder(f *jen.File, t *ir.Type) {
	u := t.Union
	body := tagRead(t)
	body = append(body, jen.Var().Id("v").Id(u.Interface))
	choose := jen.Switch(jen.String().Call(jen.Id("tag"))).Block(variantCases(t)...)
	if u.Default != nil {
		body = append(body, jen.If(jen.Op("!").Id("found")).Block(jen.Id("v").Op("=").New(jen.Id(u.Default.GoName))).Else().Block(choose))
	} else {
		body = append(body, jen.If(jen.Op("!").Id("found")).Block(jen.Return(jen.Id("missing").Call(jen.Lit(u.Tag), jen.Id("u")))), choose)
	}
	body = append(body, variantRead(t)...)
	if u.KeepsOther() {
		body = append(body, jen.If(jen.List(jen.Id("other"), jen.Id("ok")).Op(":=").Id("v").Assert(jen.Op("*").Id(u.Fallback.GoName)), jen.Id("ok")).Block(
			jen.Return(jen.Id("u").Dot("keepOther").Call(jen.Id("other")))))
	}
	body = append(body,
		jen.Id("u").Dot("Value").Op("=").Id("v"),
		jen.Return(jen.Nil()),
	)
	if u.UnknownDefault {
		f.Comment(fmt.Sprintf("decodeRest decodes the variant that %q names; an unknown value gives %s when the", u.Tag, variantRef(u.Default)))
		f.Comment(fmt.Sprintf("object fits it, as the schema reads it, else %s.", variantRef(u.Fallback)))
	} else {
		f.Comment(fmt.Sprintf("decodeRest decodes the variant that %q names; an unknown value gives %s.", u.Tag, variantRef(u.Fallback)))
	}
	if u.Default != nil {
		f.Comment(fmt.Sprintf("Without %q it gives %s.", u.Tag, variantRef(u.Default)))
	}
	f.Func().Params(jen.Id("u").Op("*").Id(t.GoName)).Id("decodeRest").Params(restParams(false)...).Error().Block(body...)
	f.Line()
	outer := []jen.Code{jen.Lit(u.Tag)}
	for _, fl := range t.Fields {
		outer = append(outer, jen.Lit(fl.JSONName))
	}
	f.Comment(fmt.Sprintf("%s are the members of %s that its variants leave to it: the tag and the shared fields.", u.Members, t.GoName))
	f.Var().Id(u.Members).Op("=").Index().String().Values(outer...)
	f.Line()
	f.Func().Params(jen.Id("u").Op("*").Id(t.GoName)).Id("decodeJSON").Params(decoderParam).Error().Block(jen.Return(jen.Id("d").Dot("object").Call(jen.Id("u"))))
	f.Line()
	f.Comment(fmt.Sprintf("UnmarshalJSON decodes the variant that %q names.", u.Tag))
	f.Func().Params(jen.Id("u").Op("*").Id(t.GoName)).Id("UnmarshalJSON").Params(jen.Id("data").Index().Byte()).Error().Block(
		jen.Return(jen.Id("decodeBytes").Call(jen.Id("data"), jen.Id("u"))))
	f.Line()
}

// tagRead starts decodeRest: it finds the tag and, when the union has
// shared fields, decodes them from the whole object.
func tagRead(t *ir.Type) []jen.Code {
	u := t.Union
	body := []jen.Code{
		jen.List(jen.Id("tag"), jen.Id("found"), jen.Id("rest"), jen.Err()).Op(":=").Id("d").Dot("tagOf").Call(jen.Lit(u.Tag), jen.Id("start")),
	}
	if u.Default != nil {
		/*
			A tag of another kind leaves the variant without tag, which the
			schema's anyOf accepts whatever the tag holds:

			if err != nil {
				if !isTypeError(err) {
					return err
				}
				found, rest = false, d.in[start:d.InputOffset()]
			}
		*/
		body = append(body, jen.If(jen.Err().Op("!=").Nil()).Block(
			jen.If(jen.Op("!").Id("isTypeError").Call(jen.Err())).Block(jen.Return(jen.Err())),
			jen.List(jen.Id("found"), jen.Id("rest")).Op("=").List(jen.False(), jen.Id("d").Dot("in").Index(jen.Id("start").Op(":").Id("d").Dot("InputOffset").Call())),
		))
	} else {
		body = append(body, jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())))
	}
	if len(t.Fields) > 0 {
		// The shared fields are decoded from the whole object, read to its
		// end when the tag came first, then the variant.
		body = append(body,
			jen.If(jen.Id("rest").Op("==").Nil()).Block(
				jen.If(jen.List(jen.Id("rest"), jen.Err()).Op("=").Id("d").Dot("skipRest").Call(jen.Id("start")), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err()))),
			jen.If(jen.Err().Op(":=").Id("within").Call(jen.Id("rest"), jen.Parens(jen.Op("*").Id(u.Shared)).Call(jen.Id("u"))), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())))
	}
	return body
}

// variantCases are the cases of the switch over the tag: one per known
// variant, one per removed variant, which is an error, and the default,
// unknownVariant.
func variantCases(t *ir.Type) []jen.Code {
	u := t.Union
	var cases []jen.Code
	for _, v := range t.OwnVariants() {
		cases = append(cases, jen.Case(jen.Lit(v.Tag)).Block(jen.Id("v").Op("=").New(jen.Id(v.GoName))))
	}
	for _, r := range u.Removed {
		cases = append(cases, jen.Case(jen.Lit(r.Tag)).Block(jen.Return(jen.Id("d").Dot("abandon").Call(jen.Id("start"), jen.Id("rest"),
			jen.Id("typeError").Call(jen.Lit(fmt.Sprintf("%s %q (%s)", u.Tag, r.Tag, r.Reason)), jen.Id("u"), jen.Lit(u.Tag))))))
	}
	return append(cases, jen.Default().Block(unknownVariant(t)...))
}

// unknownVariant is the default case of the switch over the tag: a variant
// that build tags include, or else the unknown variant, which keeps the
// whole object and, after a leading tag, goes on reading the members.
/*
	if newVariant := sessionUpdateUnstable[string(tag)]; newVariant != nil {
		v = newVariant()
	} else {
		other := &SessionUpdateOther{Tag: string(tag)}
		if rest == nil {
			if err := other.decodeMembers(d, start, 1); err != nil {
				return err
			}
			u.Value = other
			return nil
		}
		v = other
	}
*/
func unknownVariant(t *ir.Type) []jen.Code {
	u := t.Union
	var other []jen.Code
	if u.UnknownDefault {
		// v = &AuthMethodAgentVariant{Tag: string(tag)}
		other = []jen.Code{jen.Id("v").Op("=").Op("&").Id(u.Default.GoName).Values(jen.Dict{jen.Id("Tag"): jen.String().Call(jen.Id("tag"))})}
	} else {
		other = unknownOther(t)
	}
	if !t.GatedVariants() {
		return other
	}
	return []jen.Code{jen.If(jen.Id("newVariant").Op(":=").Id(u.Registry).Index(jen.String().Call(jen.Id("tag"))), jen.Id("newVariant").Op("!=").Nil()).Block(
		jen.Id("v").Op("=").Id("newVariant").Call(),
	).Else().Block(other...)}
}

// unknownOther keeps an unknown tag's object in the unknown variant.
func unknownOther(t *ir.Type) []jen.Code {
	u := t.Union
	return []jen.Code{
		jen.Id("other").Op(":=").Op("&").Id(u.Fallback.GoName).Values(jen.Dict{jen.Id("Tag"): jen.String().Call(jen.Id("tag"))}),
		jen.If(jen.Id("rest").Op("==").Nil()).Block(append([]jen.Code{
			jen.If(jen.Err().Op(":=").Id("other").Dot("decodeMembers").Call(jen.Id("d"), jen.Id("start"), jen.Lit(1)), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		}, keepOther(t, jen.Id("other"))...)...),
		jen.Id("v").Op("=").Id("other"),
	}
}

// variantRead decodes the variant chosen. With a variant without tag, one
// that fails leaves that variant, when it fits; when that variant leaves
// the tag free (ir.UnionInfo.DefaultTag) it keeps the tag, and when it
// took an unknown tag (UnknownDefault) and does not fit, the object is
// kept in the unknown variant.
/*
	depth := d.StackDepth()
	if err := d.variant(v, start, rest, authMethodMembers); err != nil {
		if def, isDefault := v.(*AuthMethodAgentVariant); isDefault {
			if def.Tag == "" {
				return err
			}
			other := new(AuthMethodOther)
			if err := d.orDefault(other, start, rest, depth, nil, err); err != nil {
				return err
			}
			v = other
		} else {
			def := &AuthMethodAgentVariant{Tag: v.authMethodTag()}
			if err := d.orDefault(def, start, rest, depth, authMethodMembers, err); err != nil {
				return err
			}
			v = def
		}
	}
*/
func variantRead(t *ir.Type) []jen.Code {
	u := t.Union
	read := jen.Err().Op(":=").Id("d").Dot("variant").Call(jen.Id("v"), jen.Id("start"), jen.Id("rest"), jen.Id(u.Members))
	if u.Default == nil {
		return []jen.Code{jen.If(read, jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err()))}
	}
	orDefault := func(v string, outer jen.Code) jen.Code {
		return jen.If(jen.Err().Op(":=").Id("d").Dot("orDefault").Call(jen.Id(v), jen.Id("start"), jen.Id("rest"), jen.Id("depth"), outer, jen.Err()), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err()))
	}
	isDefault := jen.Id("_")
	onDefault := []jen.Code{jen.Return(jen.Err())}
	if u.UnknownDefault {
		isDefault = jen.Id("def")
		onDefault = []jen.Code{
			jen.If(jen.Id("def").Dot("Tag").Op("==").Lit("")).Block(jen.Return(jen.Err())),
			jen.Id("other").Op(":=").New(jen.Id(u.Fallback.GoName)),
			orDefault("other", jen.Nil()),
			jen.Id("v").Op("=").Id("other"),
		}
	}
	def, outer := jen.Id("def").Op(":=").New(jen.Id(u.Default.GoName)), jen.Code(jen.Nil())
	if u.DefaultTag {
		def = jen.Id("def").Op(":=").Op("&").Id(u.Default.GoName).Values(jen.Dict{jen.Id("Tag"): jen.Id("v").Dot(u.Marker).Call()})
		outer = jen.Id(u.Members)
	}
	test := jen.If(jen.List(isDefault, jen.Id("isDefault")).Op(":=").Id("v").Assert(jen.Op("*").Id(u.Default.GoName)), jen.Id("isDefault")).Block(onDefault...)
	fallThrough := []jen.Code{def, orDefault("def", outer), jen.Id("v").Op("=").Id("def")}
	onErr := append([]jen.Code{test}, fallThrough...)
	if u.UnknownDefault {
		onErr = []jen.Code{test.Else().Block(fallThrough...)}
	}
	return []jen.Code{
		jen.Id("depth").Op(":=").Id("d").Dot("StackDepth").Call(),
		jen.If(read, jen.Err().Op("!=").Nil()).Block(onErr...),
	}
}

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
	if t.Union.KeepsOther() {
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
	if !u.KeepsOther() {
		return
	}
	body := []jen.Code{jen.List(jen.Id("b"), jen.Err()).Op(":=").Id("other").Dot("appendMembers").Call(jen.Nil())}
	if len(t.Fields) > 0 {
		body = append(body, jen.If(jen.Err().Op("==").Nil()).Block(
			jen.List(jen.Id("b"), jen.Err()).Op("=").Parens(jen.Op("*").Id(t.Union.Shared)).Call(jen.Id("u")).Dot("appendMembers").Call(jen.Id("b"))))
	}
	body = append(body, jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())))
	names := append([]jen.Code{jen.Id("other").Dot("Raw"), jen.Id("b")}, lits(u.OtherShared)...)
	if keys := sortedKeys(u.OtherSharedGated); len(keys) > 0 {
		// The members that build tags add, from the extension structs:
		// names := append([]string{"_meta", …}, u.xTags.otherShared()...)
		names = names[:2]
		body = append(body, jen.Id("names").Op(":=").Index().String().Values(lits(u.OtherShared)...))
		for _, k := range keys {
			body = append(body, jen.Id("names").Op("=").Append(jen.Id("names"), jen.Id("u").Dot(t.Extensions[k]).Dot("otherShared").Call().Op("...")))
		}
		names = append(names, jen.Id("names").Op("..."))
	}
	body = append(body,
		jen.Id("other").Dot("Raw").Op("=").Id("patchShared").Call(names...),
		jen.Id("u").Dot("Value").Op("=").Id("other"),
		jen.Return(jen.Nil()),
	)
	f.Comment("keepOther sets the unknown variant other, whose members that every variant shares were decoded")
	f.Comment("as on a known one: Raw holds the ones decoding changed (a default) as decoded.")
	f.Func().Params(jen.Id("u").Op("*").Id(t.GoName)).Id("keepOther").Params(jen.Id("other").Op("*").Id(u.Fallback.GoName)).Error().Block(body...)
	f.Line()
}

// gatedVariants emits the variants that a set of unstable features adds to
// a stable tagged union, and registers them with the union's decoder.
func (e *emitter) gatedVariants(out pair, gv ir.GatedVariants) {
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

// tagMember is the JSON object member `"tag":"value"` that a variant's
// encoding starts with.
func tagMember(tag, value string) string {
	return quote(tag) + ":" + quote(value)
}

// sortedKeys returns the keys of m, sorted.
func sortedKeys(m map[string][]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
