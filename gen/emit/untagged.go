package emit

import (
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/acpgen/acpgen/gen/ir"
)

// untagged emits a union told apart by the JSON kind of the value and, for
// objects, by the keys present.
func (e *emitter) untagged(f *jen.File, t *ir.Type) {
	u := t.Union
	for _, v := range u.Variants {
		switch {
		case v.IsObject() && v.JSON == ir.KindObject:
			e.knownVariant(f, t, v, "")
		case v.JSON == ir.KindNull:
			f.Add(comment(v.GoName, fmt.Sprintf("the JSON null alternative of %s.\n\n%s", t.GoName, v.Doc)))
			f.Type().Id(v.GoName).Struct()
			f.Line()
			f.Func().Params(jen.Id(v.GoName)).Id(t.Union.Marker).Params().Block()
			f.Line()
			f.Func().Params(jen.Id(v.GoName)).Id("appendJSON").Params(bufParam).Params(encodeResult...).Block(
				jen.Return(jen.Append(jen.Id("b"), jen.Lit("null").Op("...")), jen.Nil()))
			f.Line()
			f.Comment("MarshalJSON writes null.")
			f.Func().Params(jen.Id(v.GoName)).Id("MarshalJSON").Params().Params(jen.Index().Byte(), jen.Error()).Block(
				jen.Return(jen.Index().Byte().Call(jen.Lit("null")), jen.Nil()))
			f.Line()
		default:
			f.Add(comment(v.GoName, fmt.Sprintf("the %s alternative of %s.\n\n%s", v.Name, t.GoName, v.Doc)))
			f.Type().Id(v.GoName).Add(goType(*v.Value))
			f.Line()
			f.Func().Params(jen.Id(v.GoName)).Id(t.Union.Marker).Params().Block()
			f.Line()
			valueVariantEncoder(f, v)
		}
	}
	if fb := u.Fallback; fb != nil {
		f.Add(comment(fb.GoName, fmt.Sprintf("a value of %s that fits none of the other alternatives, kept as received.\n\n%s", t.GoName, fb.Doc)))
		f.Type().Id(fb.GoName).Struct(jen.Comment("Raw is the JSON value as received, written back unchanged."), jen.Id("Raw").Qual(jsonPkg, "RawMessage"))
		f.Line()
		f.Func().Params(jen.Op("*").Id(fb.GoName)).Id(t.Union.Marker).Params().Block()
		f.Line()
		e.fallbackRaw(f, t)
		f.Func().Params(jen.Id("v").Op("*").Id(fb.GoName)).Id("appendJSON").Params(bufParam).Params(encodeResult...).Block(
			jen.Return(jen.Id("appendRaw").Call(jen.Id("b"), jen.Id("v").Dot("Raw"))))
		f.Line()
		marshalMethod(f, fb.GoName, "v")
	}
	e.untaggedDecoder(f, t)
}

// untaggedDecoder tries the alternatives that accept the value's JSON kind in
// schema order; an object alternative is tried only when its keys are present.
/*
	switch jsonKind(data) {
	case '"':
		var v RequestIDStr
		if err = json.Unmarshal(data, &v); err == nil {
			u.Value = v
			return nil
		}
	…
	}
*/
func (e *emitter) untaggedDecoder(f *jen.File, t *ir.Type) {
	u := t.Union
	byKind := map[byte][]*ir.Variant{}
	var order []byte
	add := func(k byte, v *ir.Variant) {
		if _, ok := byKind[k]; !ok {
			order = append(order, k)
		}
		byKind[k] = append(byKind[k], v)
	}
	var names []string
	for _, v := range u.Variants {
		names = append(names, v.Name)
		switch v.JSON {
		case ir.KindObject:
			add('{', v)
		case ir.KindArray:
			add('[', v)
		case ir.KindString:
			add('"', v)
		case ir.KindBoolean:
			add('t', v)
		case ir.KindNull:
			add('n', v)
		case ir.KindInteger, ir.KindNumber:
			add('0', v)
		}
	}
	// Integers before numbers, so that 3 is an integer and 3.5 a number.
	nums := byKind['0']
	var sorted []*ir.Variant
	for _, v := range nums {
		if v.JSON == ir.KindInteger {
			sorted = append(sorted, v)
		}
	}
	for _, v := range nums {
		if v.JSON == ir.KindNumber {
			sorted = append(sorted, v)
		}
	}
	byKind['0'] = sorted

	var cases []jen.Code
	for _, k := range order {
		var block []jen.Code
		vs := byKind[k]
		keyed := k == '{' && anyRequired(vs)
		if keyed {
			block = append(block, jen.Id("m").Op(":=").Id("objectMembers").Call(jen.Id("data")))
		}
		if k == '[' && len(vs) > 1 {
			block = append(block, jen.List(jen.Id("m"), jen.Id("nonEmpty")).Op(":=").Id("firstElementMembers").Call(jen.Id("data")))
		}
		for _, v := range vs {
			block = append(block, tryVariant(v, k, len(vs) > 1)...)
		}
		var c *jen.Statement
		switch k {
		case 't':
			c = jen.Case(jen.LitRune('t'), jen.LitRune('f'))
		case '0':
			c = jen.Case(jen.LitRune('-'), jen.LitRune('0'), jen.LitRune('1'), jen.LitRune('2'), jen.LitRune('3'),
				jen.LitRune('4'), jen.LitRune('5'), jen.LitRune('6'), jen.LitRune('7'), jen.LitRune('8'), jen.LitRune('9'))
		default:
			c = jen.Case(jen.LitRune(rune(k)))
		}
		cases = append(cases, c.Block(block...))
	}
	var body []jen.Code
	if len(t.Fields) > 0 {
		body = append(body, jen.If(jen.Err().Op(":=").Id("decodeBytes").Call(jen.Id("data"), jen.Parens(jen.Op("*").Id(t.Union.Shared)).Call(jen.Id("u"))), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())))
	}
	body = append(body, jen.Var().Err().Error(), jen.Switch(jen.Id("jsonKind").Call(jen.Id("data"))).Block(cases...))
	if fb := u.Fallback; fb != nil {
		body = append(body,
			jen.Id("u").Dot("Value").Op("=").Op("&").Id(fb.GoName).Values(jen.Dict{
				jen.Id("Raw"): jen.Append(jen.Qual(jsonPkg, "RawMessage").Call(jen.Nil()), jen.Id("data").Op("...")),
			}),
			jen.Return(jen.Nil()),
		)
	} else {
		body = append(body,
			jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
			jen.Return(jen.Id("typeError").Call(
				jen.Id("kindName").Call(jen.Id("jsonKind").Call(jen.Id("data"))).Op("+").Lit(" that fits none of "+strings.Join(names, ", ")),
				jen.Id("u"), jen.Lit(""))),
		)
	}
	f.Comment("UnmarshalJSON picks the alternative by the kind of JSON value and the keys present.")
	f.Func().Params(jen.Id("u").Op("*").Id(t.GoName)).Id("UnmarshalJSON").Params(jen.Id("data").Index().Byte()).Error().Block(body...)
	f.Line()
	f.Func().Params(jen.Id("u").Op("*").Id(t.GoName)).Id("decodeJSON").Params(decoderParam).Error().Block(
		untaggedInPlace(t, byKind['{'])...)
	f.Line()
	f.Func().Params(jen.Id("u").Op("*").Id(t.GoName)).Id("decodeRest").Params(decoderParam, jen.Id("start").Int64()).Error().Block(
		jen.Return(jen.Id("d").Dot("bridgeRest").Call(jen.Id("u"), jen.Id("start"))))
	f.Line()
	e.sharedFields(f, t)
}

// untaggedInPlace is the body of decodeJSON. Inside other values, the
// alternatives are tried on the value's bytes; but an object, when one
// alternative alone takes objects and the union has no fields of its own,
// is decoded as that alternative in the same pass, and its keys are looked
// at only when it does not fit.
/*
	if d.PeekKind() != '{' {
		return d.bridge(u)
	}
	v := new(AvailableCommandInputUnstructured)
	raw, err := d.alternative(v)
	if raw != nil {
		return u.UnmarshalJSON(raw)
	}
	if err == nil {
		u.Value = v
	}
	return err
*/
func untaggedInPlace(t *ir.Type, objects []*ir.Variant) []jen.Code {
	bridge := jen.Return(jen.Id("d").Dot("bridge").Call(jen.Id("u")))
	if len(objects) != 1 || !objects[0].IsObject() || len(t.Fields) > 0 {
		return []jen.Code{bridge}
	}
	return []jen.Code{
		jen.If(jen.Id("d").Dot("PeekKind").Call().Op("!=").LitRune('{')).Block(bridge),
		jen.Id("v").Op(":=").New(jen.Id(objects[0].GoName)),
		jen.List(jen.Id("raw"), jen.Err()).Op(":=").Id("d").Dot("alternative").Call(jen.Id("v")),
		jen.If(jen.Id("raw").Op("!=").Nil()).Block(jen.Return(jen.Id("u").Dot("UnmarshalJSON").Call(jen.Id("raw")))),
		jen.If(jen.Err().Op("==").Nil()).Block(jen.Id("u").Dot("Value").Op("=").Id("v")),
		jen.Return(jen.Err()),
	}
}

func anyRequired(vs []*ir.Variant) bool {
	for _, v := range vs {
		if len(v.Required) > 0 {
			return true
		}
	}
	return false
}

// tryVariant decodes alternative v, and returns from the decoder on success.
func tryVariant(v *ir.Variant, kind byte, several bool) []jen.Code {
	var target, value jen.Code
	var decl jen.Code
	if v.IsObject() {
		decl = jen.Id("v").Op(":=").New(jen.Id(v.GoName))
		target, value = jen.Id("v"), jen.Id("v")
	} else {
		decl = jen.Var().Id("v").Id(v.GoName)
		target, value = jen.Op("&").Id("v"), jen.Id("v")
	}
	if v.JSON == ir.KindNull {
		return []jen.Code{jen.Id("u").Dot("Value").Op("=").Id(v.GoName).Values(), jen.Return(jen.Nil())}
	}
	decode := jen.Id("decodeValid").Call(jen.Id("data"), target)
	if r := v.Value; r != nil && r.Kind != ir.RefRaw {
		// The runtime's decoders, which follow the schema (1.0 is the integer
		// 1, a list of strings has no null), through the type below the
		// alternative's: decodeWith(data, (*[]string)(&v), …).
		decode = jen.Id("decodeWith").Call(jen.Id("data"), jen.Parens(jen.Op("*").Add(goType(*r))).Call(target), elemDecoder(*r))
	}
	try := jen.Block(
		decl,
		jen.If(jen.Err().Op("=").Add(decode), jen.Err().Op("==").Nil()).Block(
			jen.Id("u").Dot("Value").Op("=").Add(value),
			jen.Return(jen.Nil()),
		),
	)
	var cond jen.Code
	switch {
	case kind == '{' && len(v.Required) > 0:
		cond = jen.Id("hasKeys").Call(append([]jen.Code{jen.Id("m")}, lits(v.Required)...)...)
	case kind == '[' && several && len(v.Required) > 0:
		cond = jen.Op("!").Id("nonEmpty").Op("||").Id("hasKeys").Call(append([]jen.Code{jen.Id("m")}, lits(v.Required)...)...)
	}
	if cond == nil {
		return []jen.Code{try}
	}
	return []jen.Code{jen.If(cond).Add(try)}
}

func lits(ss []string) []jen.Code {
	var out []jen.Code
	for _, s := range ss {
		out = append(out, jen.Lit(s))
	}
	return out
}
