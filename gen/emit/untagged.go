package emit

import (
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/acpgen/acpgen/gen/ir"
)

// Untagged unions: told apart by the JSON kind of the value and, for
// objects, by the keys present. An alternative is an object variant, null,
// or a value of another type (a scalar, a list, a map); the fallback keeps
// a value that fits none of them as received.

// untagged emits the alternatives of untagged union t, then its decoder.
func (e *emitter) untagged(out pair, t *ir.Type) {
	u := t.Union
	for _, v := range u.Variants {
		switch {
		case v.IsObject() && v.JSON == ir.KindObject:
			e.knownVariant(out, t, v, "")
		case v.JSON == ir.KindNull:
			nullAlternative(out, t, v)
		default:
			valueAlternative(out, t, v)
		}
	}
	if u.Fallback != nil {
		e.untaggedFallback(out, t)
	}
	untaggedDecoder(out.codec, t)
}

// nullAlternative emits the alternative of t that is JSON null.
func nullAlternative(out pair, t *ir.Type, v *ir.Variant) {
	f := out.api
	f.Add(comment(v.GoName, fmt.Sprintf("the JSON null alternative of %s.\n\n%s", t.GoName, v.Doc)))
	f.Type().Id(v.GoName).Struct()
	f.Line()
	f.Func().Params(jen.Id(v.GoName)).Id(t.Union.Marker).Params().Block()
	f.Line()
	f = out.codec
	f.Func().Params(jen.Id(v.GoName)).Id("appendJSON").Params(bufParam).Params(encodeResult...).Block(
		jen.Return(jen.Append(jen.Id("b"), jen.Lit("null").Op("...")), jen.Nil()))
	f.Line()
	f.Comment("MarshalJSON writes null.")
	f.Func().Params(jen.Id(v.GoName)).Id("MarshalJSON").Params().Params(jen.Index().Byte(), jen.Error()).Block(
		jen.Return(jen.Index().Byte().Call(jen.Lit("null")), jen.Nil()))
	f.Line()
}

// valueAlternative emits an alternative of t that is a value of another
// type: a defined type over it.
func valueAlternative(out pair, t *ir.Type, v *ir.Variant) {
	out.api.Add(comment(v.GoName, fmt.Sprintf("the %s alternative of %s.\n\n%s", v.Name, t.GoName, v.Doc)))
	out.api.Type().Id(v.GoName).Add(goType(*v.Value))
	out.api.Line()
	out.api.Func().Params(jen.Id(v.GoName)).Id(t.Union.Marker).Params().Block()
	out.api.Line()
	valueVariantEncoder(out.codec, v)
}

// untaggedFallback emits the alternative of t that keeps a value that fits
// none of the others, as received.
func (e *emitter) untaggedFallback(out pair, t *ir.Type) {
	fb := t.Union.Fallback
	f := out.api
	f.Add(comment(fb.GoName, fmt.Sprintf("a value of %s that fits none of the other alternatives, kept as received.\n\n%s", t.GoName, fb.Doc)))
	f.Type().Id(fb.GoName).Struct(jen.Comment("Raw is the JSON value as received, written back unchanged."), jen.Id("Raw").Qual(jsonPkg, "RawMessage"))
	f.Line()
	f.Func().Params(jen.Op("*").Id(fb.GoName)).Id(t.Union.Marker).Params().Block()
	f.Line()
	f = out.codec
	e.fallbackRaw(f, t)
	f.Func().Params(jen.Id("v").Op("*").Id(fb.GoName)).Id("appendJSON").Params(bufParam).Params(encodeResult...).Block(
		jen.Return(jen.Id("appendRaw").Call(jen.Id("b"), jen.Id("v").Dot("Raw"))))
	f.Line()
	marshalMethod(f, fb.GoName, "v")
}

// untaggedDecoder emits the decoders of t: UnmarshalJSON tries the
// alternatives that accept the value's JSON kind in schema order, an
// object alternative only when its keys are present; decodeJSON and
// decodeRest, inside other values, come back to it.
/*
	func (u *RequestID) UnmarshalJSON(data []byte) error {
		var err error
		switch jsonKind(data) {
		case '"':
			var v RequestIDStr
			if err = decodeWith(data, (*string)(&v), decodeString[string]); err == nil {
				u.Value = v
				return nil
			}
		…
		}
		…
	}
*/
func untaggedDecoder(f *jen.File, t *ir.Type) {
	order, byKind := alternativesByKind(t.Union)
	var cases []jen.Code
	for _, k := range order {
		cases = append(cases, kindCase(k, byKind[k]))
	}
	var body []jen.Code
	if len(t.Fields) > 0 {
		body = append(body, jen.If(jen.Err().Op(":=").Id("decodeObjectBytes").Call(jen.Id("data"), jen.Parens(jen.Op("*").Id(t.Union.Shared)).Call(jen.Id("u"))), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())))
	}
	body = append(body, jen.Var().Err().Error(), jen.Switch(jen.Id("jsonKind").Call(jen.Id("data"))).Block(cases...))
	body = append(body, noAlternative(t)...)
	f.Comment("UnmarshalJSON picks the alternative by the kind of JSON value and the keys present.")
	f.Func().Params(jen.Id("u").Op("*").Id(t.GoName)).Id("UnmarshalJSON").Params(jen.Id("data").Index().Byte()).Error().Block(body...)
	f.Line()
	f.Func().Params(jen.Id("u").Op("*").Id(t.GoName)).Id("decodeJSON").Params(decoderParam).Error().Block(
		untaggedInPlace(t, byKind['{'])...)
	f.Line()
	f.Func().Params(jen.Id("u").Op("*").Id(t.GoName)).Id("decodeRest").Params(restParams(false)...).Error().Block(
		jen.Return(jen.Id("d").Dot("bridgeRest").Call(jen.Id("u"), jen.Id("start"))))
	f.Line()
}

// alternativesByKind groups the alternatives of u by the first byte of
// the JSON values they take ('0' for numbers, 't' for booleans), in the
// order the kinds first appear; integers come before numbers, so that 3
// is an integer and 3.5 a number.
func alternativesByKind(u *ir.UnionInfo) (order []byte, byKind map[byte][]*ir.Variant) {
	byKind = map[byte][]*ir.Variant{}
	first := map[ir.JSONKind]byte{
		ir.KindObject: '{', ir.KindArray: '[', ir.KindString: '"', ir.KindBoolean: 't', ir.KindNull: 'n',
		ir.KindInteger: '0', ir.KindNumber: '0',
	}
	for _, v := range u.Variants {
		k, ok := first[v.JSON]
		if !ok {
			continue
		}
		if _, seen := byKind[k]; !seen {
			order = append(order, k)
		}
		byKind[k] = append(byKind[k], v)
	}
	nums := byKind['0']
	var sorted []*ir.Variant
	for _, kind := range []ir.JSONKind{ir.KindInteger, ir.KindNumber} {
		for _, v := range nums {
			if v.JSON == kind {
				sorted = append(sorted, v)
			}
		}
	}
	if len(sorted) > 0 {
		byKind['0'] = sorted
	}
	return order, byKind
}

// kindCase is the case of UnmarshalJSON for JSON values of kind k, which
// tries the alternatives vs in turn.
func kindCase(k byte, vs []*ir.Variant) jen.Code {
	var block []jen.Code
	if k == '{' && anyRequired(vs) {
		block = append(block, jen.Id("m").Op(":=").Id("objectMembers").Call(jen.Id("data")))
	}
	if k == '[' && len(vs) > 1 {
		block = append(block, jen.List(jen.Id("m"), jen.Id("nonEmpty")).Op(":=").Id("firstElementMembers").Call(jen.Id("data")))
	}
	unkeyed := 0
	for _, v := range vs {
		block = append(block, tryVariant(v, k, len(vs) > 1, &unkeyed)...)
	}
	switch k {
	case 't':
		return jen.Case(jen.LitRune('t'), jen.LitRune('f')).Block(block...)
	case '0':
		digits := []jen.Code{jen.LitRune('-')}
		for d := '0'; d <= '9'; d++ {
			digits = append(digits, jen.LitRune(d))
		}
		return jen.Case(digits...).Block(block...)
	}
	return jen.Case(jen.LitRune(rune(k))).Block(block...)
}

// noAlternative ends UnmarshalJSON when no alternative took the value: the
// fallback keeps it, or the last error is reported.
func noAlternative(t *ir.Type) []jen.Code {
	if fb := t.Union.Fallback; fb != nil {
		return []jen.Code{
			jen.Id("u").Dot("Value").Op("=").Op("&").Id(fb.GoName).Values(jen.Dict{
				jen.Id("Raw"): jen.Append(jen.Qual(jsonPkg, "RawMessage").Call(jen.Nil()), jen.Id("data").Op("...")),
			}),
			jen.Return(jen.Nil()),
		}
	}
	var names []string
	for _, v := range t.Union.Variants {
		names = append(names, v.Name)
	}
	return []jen.Code{
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		jen.Return(jen.Id("typeError").Call(
			jen.Id("kindName").Call(jen.Id("jsonKind").Call(jen.Id("data"))).Op("+").Lit(" that fits none of "+strings.Join(names, ", ")),
			jen.Id("u"), jen.Lit(""))),
	}
}

// tryVariant decodes alternative v, and returns from the decoder on
// success. An alternative tried whatever the keys present declares its
// variable in the case itself: v for the first, v2, v3 … for the next
// ones, counted by unkeyed.
func tryVariant(v *ir.Variant, kind byte, several bool, unkeyed *int) []jen.Code {
	if v.JSON == ir.KindNull {
		return []jen.Code{jen.Id("u").Dot("Value").Op("=").Id(v.GoName).Values(), jen.Return(jen.Nil())}
	}
	var cond jen.Code
	switch {
	case kind == '{' && len(v.Required) > 0:
		cond = jen.Id("hasKeys").Call(append([]jen.Code{jen.Id("m")}, lits(v.Required)...)...)
	case kind == '[' && several && len(v.Required) > 0:
		cond = jen.Op("!").Id("nonEmpty").Op("||").Id("hasKeys").Call(append([]jen.Code{jen.Id("m")}, lits(v.Required)...)...)
	}
	name := "v"
	if cond == nil {
		if *unkeyed++; *unkeyed > 1 {
			name = fmt.Sprintf("v%d", *unkeyed)
		}
	}
	x := jen.Id(name)
	decl, target := jen.Var().Id(name).Id(v.GoName), jen.Op("&").Id(name)
	if v.IsObject() {
		decl, target = jen.Id(name).Op(":=").New(jen.Id(v.GoName)), x
	}
	decode := jen.Id("decodeValid").Call(jen.Id("data"), target)
	if r := v.Value; r != nil && r.Kind != ir.RefRaw {
		// The runtime's decoders, which follow the schema (1.0 is the integer
		// 1, a list of strings has no null), through the type below the
		// alternative's: decodeLocal(data, (*[]string)(&v), …).
		decode = jen.Id("decodeLocal").Call(jen.Id("data"), jen.Parens(jen.Op("*").Add(goType(*r))).Call(target), elemDecoder(*r))
	}
	try := []jen.Code{
		decl,
		jen.If(jen.Err().Op("=").Add(decode), jen.Err().Op("==").Nil()).Block(
			jen.Id("u").Dot("Value").Op("=").Add(x),
			jen.Return(jen.Nil()),
		),
	}
	if cond == nil {
		return try
	}
	return []jen.Code{jen.If(cond).Block(try...)}
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

func lits(ss []string) []jen.Code {
	var out []jen.Code
	for _, s := range ss {
		out = append(out, jen.Lit(s))
	}
	return out
}

// valueVariantEncoder emits appendJSON of an untagged alternative that is
// not an object: a defined type over a scalar, list or map.
func valueVariantEncoder(f *jen.File, v *ir.Variant) {
	x, ptr := jen.Id("v"), false
	if k := kindOf(*v.Value); k == encAppender || k == encObject {
		// V has none of the methods of the type it is defined over.
		x, ptr = jen.Parens(jen.Op("*").Add(goType(*v.Value))).Call(jen.Op("&").Id("v")), k == encObject
	}
	call, fallible := valueEncode(*v.Value, x, ptr, true)
	body := jen.Return(call, jen.Nil())
	if fallible {
		body = jen.Return(call)
	}
	f.Func().Params(jen.Id("v").Id(v.GoName)).Id("appendJSON").Params(bufParam).Params(encodeResult...).Block(body)
	f.Line()
}
