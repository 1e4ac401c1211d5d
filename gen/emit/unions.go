package emit

import (
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/acpgen/acpgen/gen/ir"
)

// unions emits tagged and untagged unions with their variants.
func (e *emitter) unions(out pair) {
	for _, t := range e.typesOf(ir.Union) {
		e.union(out, t)
	}
}

// union emits one union type, its decoder and its variants.
func (e *emitter) union(out pair, t *ir.Type) {
	e.unionType(out.api, t)
	e.rawMethod(out.codec, t)
	e.unionEncoders(out.codec, t)
	if t.Union.Tag != "" {
		e.tagged(out, t)
	} else {
		e.untagged(out, t)
	}
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

// tagged emits the decoder of a tagged union and its variants.
/*
	func (u *SessionUpdate) decodeRest(d *decoder, start int64) error {
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
func (e *emitter) tagged(out pair, t *ir.Type) {
	f, u := out.codec, t.Union
	ret := jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err()))
	// readRest reads the rest of the object when the tag came first.
	readRest := jen.If(jen.Id("rest").Op("==").Nil()).Block(
		jen.If(jen.List(jen.Id("rest"), jen.Err()).Op("=").Id("d").Dot("skipRest").Call(jen.Id("start")), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())))
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
		body = append(body, ret)
	}
	if len(t.Fields) > 0 {
		// The shared fields are decoded from the whole object, then the variant.
		body = append(body, readRest,
			jen.If(jen.Err().Op(":=").Id("within").Call(jen.Id("rest"), jen.Parens(jen.Op("*").Id(t.Union.Shared)).Call(jen.Id("u"))), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())))
	}
	var cases []jen.Code
	for _, v := range t.OwnVariants() {
		cases = append(cases, jen.Case(jen.Lit(v.Tag)).Block(jen.Id("v").Op("=").New(jen.Id(v.GoName))))
	}
	for _, r := range u.Removed {
		cases = append(cases, jen.Case(jen.Lit(r.Tag)).Block(jen.Return(jen.Id("d").Dot("abandon").Call(jen.Id("start"), jen.Id("rest"),
			jen.Id("typeError").Call(jen.Lit(fmt.Sprintf("%s %q (%s)", u.Tag, r.Tag, r.Reason)), jen.Id("u"), jen.Lit(u.Tag))))))
	}
	/*
		An unknown variant keeps the whole object; after a leading tag it
		goes on reading the members:

		other := &SessionUpdateOther{Tag: string(tag)}
		if rest == nil {
			if err := other.decodeMembers(d, start, 1); err != nil {
				return err
			}
			u.Value = other
			return nil
		}
		v = other
	*/
	fallback := []jen.Code{
		jen.Id("other").Op(":=").Op("&").Id(u.Fallback.GoName).Values(jen.Dict{jen.Id("Tag"): jen.String().Call(jen.Id("tag"))}),
		jen.If(jen.Id("rest").Op("==").Nil()).Block(append([]jen.Code{
			jen.If(jen.Err().Op(":=").Id("other").Dot("decodeMembers").Call(jen.Id("d"), jen.Id("start"), jen.Lit(1)), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		}, keepOther(t, jen.Id("other"))...)...),
		jen.Id("v").Op("=").Id("other"),
	}
	if t.GatedVariants() {
		/*
			if newVariant := sessionUpdateUnstable[string(tag)]; newVariant != nil {
				v = newVariant()
			} else {
				v = new(SessionUpdateOther)
				…
			}
		*/
		fallback = []jen.Code{jen.If(jen.Id("newVariant").Op(":=").Id(t.Union.Registry).Index(jen.String().Call(jen.Id("tag"))), jen.Id("newVariant").Op("!=").Nil()).Block(
			jen.Id("v").Op("=").Id("newVariant").Call(),
		).Else().Block(fallback...)}
	}
	cases = append(cases, jen.Default().Block(fallback...))
	choose := jen.Switch(jen.String().Call(jen.Id("tag"))).Block(cases...)
	body = append(body, jen.Var().Id("v").Id(t.Union.Interface))
	if u.Default != nil {
		body = append(body, jen.If(jen.Op("!").Id("found")).Block(jen.Id("v").Op("=").New(jen.Id(u.Default.GoName))).Else().Block(choose))
	} else {
		body = append(body, jen.If(jen.Op("!").Id("found")).Block(jen.Return(jen.Id("missing").Call(jen.Lit(u.Tag), jen.Id("u")))), choose)
	}
	if u.Default != nil {
		/*
			A variant that fails leaves the variant without tag, when that fits:

			depth := d.StackDepth()
			if err := d.variant(v, start, rest); err != nil {
				def := new(AuthMethodAgent)
				if _, isDefault := v.(*AuthMethodAgent); isDefault {
					return err
				}
				if err := d.orDefault(def, start, rest, depth, err); err != nil {
					return err
				}
				v = def
			}
		*/
		body = append(body,
			jen.Id("depth").Op(":=").Id("d").Dot("StackDepth").Call(),
			jen.If(jen.Err().Op(":=").Id("d").Dot("variant").Call(jen.Id("v"), jen.Id("start"), jen.Id("rest"), jen.Id(t.Union.Members)), jen.Err().Op("!=").Nil()).Block(
				jen.If(jen.List(jen.Id("_"), jen.Id("isDefault")).Op(":=").Id("v").Assert(jen.Op("*").Id(u.Default.GoName)), jen.Id("isDefault")).Block(jen.Return(jen.Err())),
				jen.Id("def").Op(":=").New(jen.Id(u.Default.GoName)),
				jen.If(jen.Err().Op(":=").Id("d").Dot("orDefault").Call(jen.Id("def"), jen.Id("start"), jen.Id("rest"), jen.Id("depth"), jen.Err()), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
				jen.Id("v").Op("=").Id("def"),
			),
		)
	} else {
		body = append(body,
			jen.If(jen.Err().Op(":=").Id("d").Dot("variant").Call(jen.Id("v"), jen.Id("start"), jen.Id("rest"), jen.Id(t.Union.Members)), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())))
	}
	if len(u.OtherShared) > 0 {
		body = append(body, jen.If(jen.List(jen.Id("other"), jen.Id("ok")).Op(":=").Id("v").Assert(jen.Op("*").Id(u.Fallback.GoName)), jen.Id("ok")).Block(
			jen.Return(jen.Id("u").Dot("keepOther").Call(jen.Id("other")))))
	}
	body = append(body,
		jen.Id("u").Dot("Value").Op("=").Id("v"),
		jen.Return(jen.Nil()),
	)
	f.Comment(fmt.Sprintf("decodeRest decodes the variant that %q names; an unknown value gives %s.", u.Tag, variantRef(u.Fallback)))
	if u.Default != nil {
		f.Comment(fmt.Sprintf("Without %q it gives %s.", u.Tag, variantRef(u.Default)))
	}
	f.Func().Params(jen.Id("u").Op("*").Id(t.GoName)).Id("decodeRest").Params(decoderParam, jen.Id("start").Int64()).Error().Block(body...)
	f.Line()
	outer := []jen.Code{jen.Lit(u.Tag)}
	for _, fl := range t.Fields {
		outer = append(outer, jen.Lit(fl.JSONName))
	}
	f.Comment(fmt.Sprintf("%s are the members of %s that its variants leave to it: the tag and the shared fields.", t.Union.Members, t.GoName))
	f.Var().Id(t.Union.Members).Op("=").Index().String().Values(outer...)
	f.Line()
	f.Func().Params(jen.Id("u").Op("*").Id(t.GoName)).Id("decodeJSON").Params(decoderParam).Error().Block(jen.Return(jen.Id("d").Dot("object").Call(jen.Id("u"))))
	f.Line()
	f.Comment(fmt.Sprintf("UnmarshalJSON decodes the variant that %q names.", u.Tag))
	f.Func().Params(jen.Id("u").Op("*").Id(t.GoName)).Id("UnmarshalJSON").Params(jen.Id("data").Index().Byte()).Error().Block(
		jen.Return(jen.Id("decodeBytes").Call(jen.Id("data"), jen.Id("u"))))
	f.Line()
	e.sharedFields(f, t)
	keepOtherMethod(f, t)
	if t.GatedVariants() {
		f.Comment(fmt.Sprintf("%s holds the variants of the unstable surface that build tags include, by tag.", t.Union.Registry))
		f.Var().Id(t.Union.Registry).Op("=").Map(jen.String()).Func().Params().Id(t.Union.Interface).Values()
		f.Line()
	}
	for _, v := range t.OwnVariants() {
		e.knownVariant(out, t, v, tagMember(u.Tag, v.Tag))
	}
	if u.Default != nil {
		e.knownVariant(out, t, u.Default, "")
	}
	e.fallback(out, t)
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

// knownVariant emits a variant struct, its marker and its encoder. check
// makes sure that a variant with an encoder of its own is an object whose
// payloads have members, and that one of several parts embeds structs.
func (e *emitter) knownVariant(out pair, t *ir.Type, v *ir.Variant, tagMember string) {
	f := out.api
	switch {
	case v.Tag != "":
		f.Add(comment(v.GoName, fmt.Sprintf("the %q variant of %s.\n\n%s", v.Tag, t.GoName, v.Doc)))
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
	f.Type().Id(v.GoName).Struct(members...)
	f.Line()
	if t.Union.Tag != "" {
		f.Func().Params(jen.Op("*").Id(v.GoName)).Id(t.Union.Marker).Params().String().Block(jen.Return(jen.Lit(v.Tag)))
	} else {
		f.Func().Params(jen.Op("*").Id(v.GoName)).Id(t.Union.Marker).Params().Block()
	}
	f.Line()
	if t.Union.Tag == "" && len(v.Fields) == 0 && len(v.Embeds) == 1 {
		// The embedded payload encodes and decodes the variant as it is.
		return
	}
	f = out.codec
	enc := encodeSpec{goName: v.GoName, tag: tagMember, fields: v.Fields, rawFirst: e.rawFirst(v)}
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
	func (v *X) decodeRest(d *decoder, start int64) error {
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
	f.Func().Params(receiver(v.GoName)).Id("decodeRest").Params(decoderParam, jen.Id("start").Int64()).Error().Block(body...)
	f.Line()
	decodeJSONMethod(f, v.GoName, jen.Id("d").Dot("object").Call(jen.Id(recvName)))
	unmarshalMethod(f, v.GoName)
}

// extsRequired reports whether some extension struct has required members.
func extsRequired(exts []extRef) bool {
	for _, x := range exts {
		if x.required {
			return true
		}
	}
	return false
}

// tagMember is the JSON object member `"tag":"value"` that a variant's
// encoding starts with.
func tagMember(tag, value string) string {
	return quote(tag) + ":" + quote(value)
}
