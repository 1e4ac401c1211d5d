package emit

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/acpgen/acpgen/gen/ir"
)

// unions emits tagged and untagged unions with their variants.
func (e *emitter) unions(f *jen.File) error {
	for _, t := range e.typesOf(ir.Union) {
		if err := e.union(f, t); err != nil {
			return err
		}
	}
	return nil
}

// union emits one union type, its decoder and its variants.
func (e *emitter) union(f *jen.File, t *ir.Type) error {
	e.unionType(f, t)
	if t.Union.Tag != "" {
		return e.tagged(f, t)
	}
	return e.untagged(f, t)
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

func iface(t *ir.Type) string { return t.GoName + "Variant" }

// marker is the unexported method that seals a union's variant interface.
func marker(t *ir.Type) string {
	if t.Union.Tag != "" {
		return lowerFirst(t.GoName) + "Tag"
	}
	return "is" + t.GoName
}

func lowerFirst(s string) string {
	i := 1
	for i < len(s) && s[i] >= 'A' && s[i] <= 'Z' && (i+1 == len(s) || s[i+1] >= 'A' && s[i+1] <= 'Z') {
		i++
	}
	return strings.ToLower(s[:i]) + s[i:]
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
	members = append(members, comment("", valueDoc), jen.Id("Value").Id(iface(t)).Tag(map[string]string{"json": "-"}))
	f.Type().Id(t.GoName).Struct(members...)
	f.Line()
	f.Add(comment("", fmt.Sprintf("%s is implemented by the variants of %s:%s", iface(t), t.GoName, bullets(list))))
	if u.Tag != "" {
		f.Type().Id(iface(t)).Interface(jen.Id(marker(t)).Params().String())
		f.Line()
		f.Comment(fmt.Sprintf("Tag returns the %q value of the variant, or \"\" for none.", u.Tag))
		f.Func().Params(jen.Id("u").Id(t.GoName)).Id("Tag").Params().String().Block(
			jen.If(jen.Id("u").Dot("Value").Op("==").Nil()).Block(jen.Return(jen.Lit(""))),
			jen.Return(jen.Id("u").Dot("Value").Dot(marker(t)).Call()),
		)
	} else {
		f.Type().Id(iface(t)).Interface(jen.Id(marker(t)).Params())
	}
	f.Line()
	e.unionMarshal(f, t)
	f.Line()
	e.rawMethod(f, t)
}

/*
	func (u SessionUpdate) MarshalJSON() ([]byte, error) {
		if u.Value == nil { return nil, errors.New(…) }
		return json.Marshal(u.Value)
	}
*/
func (e *emitter) unionMarshal(f *jen.File, t *ir.Type) {
	body := []jen.Code{
		jen.If(jen.Id("u").Dot("Value").Op("==").Nil()).Block(
			jen.Return(jen.Nil(), jen.Qual("errors", "New").Call(jen.Lit(fmt.Sprintf("%s: %s.Value is nil", e.p.Name, t.GoName)))),
		),
	}
	if len(t.Fields) == 0 {
		body = append(body, jen.Return(jen.Id("encodeValue").Call(jen.Id("u").Dot("Value"))))
	} else {
		if t.Union.Fallback != nil {
			// An unknown variant's Raw is the whole object, shared fields included.
			body = append(body, jen.If(
				jen.List(jen.Id("h"), jen.Id("ok")).Op(":=").Id("u").Dot("Value").Assert(jen.Id("rawHolder")),
				jen.Id("ok"),
			).Block(jen.If(jen.Id("raw").Op(":=").Id("h").Dot("rawObject").Call(), jen.Id("raw").Op("!=").Nil()).Block(
				jen.Return(jen.Id("raw"), jen.Nil()))))
		}
		body = append(body,
			jen.Type().Id("plain").Id(t.GoName),
			jen.Return(jen.Id("marshalObject").Call(jen.Lit(""),
				fieldsValue(jen.Id("plain").Call(jen.Id("u")), "u", keepsEmpty(ownFields(t))), jen.Id("u").Dot("Value"))),
		)
	}
	doc := "MarshalJSON writes the variant"
	if len(t.Fields) > 0 {
		doc += " and the shared fields as one object; an Other variant that has Raw is written as is"
	}
	f.Comment(doc + ".")
	f.Func().Params(jen.Id("u").Id(t.GoName)).Id("MarshalJSON").Params().Params(jen.Index().Byte(), jen.Error()).Block(body...)
}

// rejectNonObject is the start of an object-only decoder. Null is an error
// too, as in the reference: where the schema allows null, the field is a
// pointer, which the standard library sets to nil without asking the type.
func rejectNonObject(recv string) jen.Code {
	return jen.If(jen.Id("k").Op(":=").Id("jsonKind").Call(jen.Id("data")), jen.Id("k").Op("!=").LitRune('{')).Block(
		jen.Return(jen.Id("typeError").Call(jen.Id("kindName").Call(jen.Id("k")), jen.Id(recv), jen.Lit(""))),
	)
}

// tagged emits the decoder of a tagged union and its variants.
/*
	func (u *SessionUpdate) UnmarshalJSON(data []byte) error {
		var probe struct{ Tag *string `json:"sessionUpdate"` }
		…
		switch *probe.Tag {
		case "tool_call":
			v = new(SessionUpdateToolCall)
		…
		default:
			v = new(SessionUpdateOther)
		}
		if err := json.Unmarshal(data, v); err != nil {
			return err
		}
		u.Value = v
		return nil
	}
*/
func (e *emitter) tagged(f *jen.File, t *ir.Type) error {
	u := t.Union
	tagField := jen.Id("Tag").Op("*").String().Tag(map[string]string{"json": u.Tag})
	probe := []jen.Code{jen.Var().Id("probe").Struct(tagField)}
	var missing jen.Code
	if u.Default != nil {
		missing = jen.Id("v").Op("=").New(jen.Id(u.Default.GoName))
	} else {
		missing = jen.Return(jen.Id("typeError").Call(jen.Lit(fmt.Sprintf("object without %q", u.Tag)), jen.Id("u"), jen.Lit(u.Tag)))
	}
	var cases []jen.Code
	for _, v := range ownVariants(t) {
		cases = append(cases, jen.Case(jen.Lit(v.Tag)).Block(jen.Id("v").Op("=").New(jen.Id(v.GoName))))
	}
	for _, r := range u.Removed {
		cases = append(cases, jen.Case(jen.Lit(r.Tag)).Block(jen.Return(jen.Id("typeError").Call(
			jen.Lit(fmt.Sprintf("%s %q (%s)", u.Tag, r.Tag, r.Reason)), jen.Id("u"), jen.Lit(u.Tag)))))
	}
	fallback := jen.Id("v").Op("=").New(jen.Id(u.Fallback.GoName))
	if hasUnstableVariants(t) {
		/*
			if newVariant := sessionUpdateUnstable[*probe.Tag]; newVariant != nil {
				v = newVariant()
			} else {
				v = new(SessionUpdateOther)
			}
		*/
		fallback = jen.If(jen.Id("newVariant").Op(":=").Id(registry(t)).Index(jen.Op("*").Id("probe").Dot("Tag")), jen.Id("newVariant").Op("!=").Nil()).Block(
			jen.Id("v").Op("=").Id("newVariant").Call(),
		).Else().Block(fallback)
	}
	cases = append(cases, jen.Default().Block(fallback))
	body := []jen.Code{rejectNonObject("u")}
	if len(t.Fields) == 0 {
		body = append(body, probe...)
		body = append(body, jen.If(jen.Err().Op(":=").Qual(jsonPkg, "Unmarshal").Call(jen.Id("data"), jen.Op("&").Id("probe")), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())))
	} else {
		body = append(body, decodeFields(t.GoName, "u", ownFields(t), tagField)...)
	}
	body = append(body,
		jen.Var().Id("v").Id(iface(t)),
		dispatch(u.Default != nil, missing, jen.Switch(jen.Op("*").Id("probe").Dot("Tag")).Block(cases...)),
		jen.If(jen.Err().Op(":=").Id("decodeValid").Call(jen.Id("data"), jen.Id("v")), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		jen.Id("u").Dot("Value").Op("=").Id("v"),
		jen.Return(jen.Nil()),
	)
	f.Comment(fmt.Sprintf("UnmarshalJSON decodes the variant that %q names; an unknown value gives %s.", u.Tag, variantRef(u.Fallback)))
	if u.Default != nil {
		f.Comment(fmt.Sprintf("Without %q it gives %s.", u.Tag, variantRef(u.Default)))
	}
	f.Func().Params(jen.Id("u").Op("*").Id(t.GoName)).Id("UnmarshalJSON").Params(jen.Id("data").Index().Byte()).Error().Block(body...)
	f.Line()
	if hasUnstableVariants(t) {
		f.Comment(fmt.Sprintf("%s holds the variants of the unstable surface that build tags include, by tag.", registry(t)))
		f.Var().Id(registry(t)).Op("=").Map(jen.String()).Func().Params().Id(iface(t)).Values()
		f.Line()
	}
	for _, v := range ownVariants(t) {
		if err := e.knownVariant(f, t, v, tagMember(u.Tag, v.Tag)); err != nil {
			return err
		}
	}
	if u.Default != nil {
		if err := e.knownVariant(f, t, u.Default, ""); err != nil {
			return err
		}
	}
	e.fallback(f, t)
	return nil
}

// dispatch is `if probe.Tag == nil { missing } else { choose }`, without the
// else when missing returns.
func dispatch(hasDefault bool, missing, choose jen.Code) jen.Code {
	cond := jen.If(jen.Id("probe").Dot("Tag").Op("==").Nil()).Block(missing)
	if hasDefault {
		return cond.Else().Block(choose)
	}
	return jen.Add(cond, jen.Line(), choose)
}

// knownVariant emits a variant struct, its marker and its encoder.
func (e *emitter) knownVariant(f *jen.File, t *ir.Type, v *ir.Variant, tagMember string) error {
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
		f.Func().Params(jen.Op("*").Id(v.GoName)).Id(marker(t)).Params().String().Block(jen.Return(jen.Lit(v.Tag)))
	} else {
		f.Func().Params(jen.Op("*").Id(v.GoName)).Id(marker(t)).Params().Block()
	}
	f.Line()
	if t.Union.Tag == "" && len(v.Fields) == 0 && len(v.Embeds) == 1 {
		// The embedded payload encodes and decodes the variant as it is.
		return nil
	}
	var parts []jen.Code
	for _, emb := range v.Embeds {
		parts = append(parts, jen.Id("v").Dot(emb.GoName))
	}
	var pre []jen.Code
	if len(v.Fields) > 0 {
		if len(v.Embeds) == 0 {
			pre = append(pre, jen.Type().Id("plain").Id(v.GoName))
			parts = append(parts, fieldsValue(jen.Id("plain").Call(jen.Id("v")), "v", keepsEmpty(v.Fields)))
		} else {
			parts = append(parts, variantFieldsValue(v))
		}
	}
	doc := "MarshalJSON writes the variant"
	if tagMember != "" {
		doc += " with its tag"
	}
	f.Comment(doc + ".")
	pre = append(e.rawFirst(v), pre...)
	f.Func().Params(jen.Id("v").Id(v.GoName)).Id("MarshalJSON").Params().Params(jen.Index().Byte(), jen.Error()).Block(
		append(pre, jen.Return(jen.Id("marshalObject").Call(append([]jen.Code{jen.Lit(tagMember)}, parts...)...)))...,
	)
	f.Line()
	if len(v.Embeds) > 1 || (len(v.Embeds) == 1 && len(v.Fields) > 0) {
		e.partsDecoder(f, v)
	} else if len(v.Embeds) == 0 {
		requiredDecoder(f, v.GoName, v.Fields)
	}
	return nil
}

// variantFieldsValue is a struct value of the variant's own fields, to encode beside
// its embedded payloads.
func variantFieldsValue(v *ir.Variant) jen.Code {
	var members, values []jen.Code
	for _, f := range v.Fields {
		members = append(members, jen.Id(f.GoName).Add(fieldType(f)).Tag(jsonTag(f)))
		values = append(values, jen.Id("v").Dot(f.GoName))
	}
	return jen.Struct(members...).Values(values...)
}

// partsDecoder decodes each embedded payload and the own fields from the
// same object, so that no payload's decoder hides the others.
func (e *emitter) partsDecoder(f *jen.File, v *ir.Variant) {
	var body []jen.Code
	for _, emb := range v.Embeds {
		body = append(body, jen.If(jen.Err().Op(":=").Qual(jsonPkg, "Unmarshal").Call(jen.Id("data"), jen.Op("&").Id("v").Dot(emb.GoName)), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())))
	}
	if len(v.Fields) == 0 {
		body = append(body, jen.Return(jen.Nil()))
	} else {
		body = append(body, decodeFields(v.GoName, "v", v.Fields)...)
		body = append(body, jen.Return(jen.Nil()))
	}
	f.Comment("UnmarshalJSON decodes every part of the variant from the same object.")
	f.Func().Params(jen.Id("v").Op("*").Id(v.GoName)).Id("UnmarshalJSON").Params(jen.Id("data").Index().Byte()).Error().Block(body...)
	f.Line()
}

// tagMember is the JSON object member `"tag":"value"` that a variant's
// encoding starts with.
func tagMember(tag, value string) string {
	k, _ := json.Marshal(tag)
	v, _ := json.Marshal(value)
	return string(k) + ":" + string(v)
}
