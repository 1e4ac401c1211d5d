package emit

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/acpgen/acpgen/gen/ir"
)

// Values: the Go type of one value of a type (an ir.Ref) and its codec,
// shared by every kind: the decoders and encoders of scalars, lists and
// maps and of the named types that members and items hold, with the checks
// of the schema's validation keywords.

// RefType returns the Go type of r as generated code spells it.
func RefType(r ir.Ref) string { return fmt.Sprintf("%#v", goType(r)) }

// goType returns the Go type of r.
func goType(r ir.Ref) *jen.Statement {
	switch r.Kind {
	case ir.RefNamed:
		if r.Type.Kind == ir.Raw && r.Type.GoName == "" {
			return jen.Qual(jsonPkg, "RawMessage")
		}
		return jen.Id(r.Type.GoName)
	case ir.RefString:
		return jen.String()
	case ir.RefBool:
		return jen.Bool()
	case ir.RefFloat:
		return jen.Float64()
	case ir.RefInt:
		name := fmt.Sprintf("int%d", r.Bits)
		if r.Unsigned {
			name = "u" + name
		}
		return jen.Id(name)
	case ir.RefArray:
		return jen.Index().Add(goType(*r.Elem))
	case ir.RefMap:
		return jen.Map(jen.String()).Add(goType(*r.Elem))
	}
	return jen.Qual(jsonPkg, "RawMessage")
}

// nilable reports whether the Go type of r has nil as its zero value.
func nilable(r ir.Ref) bool {
	switch r.Kind {
	case ir.RefArray, ir.RefMap, ir.RefRaw:
		return true
	case ir.RefNamed:
		if r.Type.Kind == ir.Raw {
			return true
		}
		if r.Type.Kind == ir.Named {
			return nilable(*r.Type.Underlying)
		}
	}
	return false
}

func underlying(r ir.Ref) ir.Ref {
	for r.Kind == ir.RefNamed && r.Type.Kind == ir.Named {
		r = *r.Type.Underlying
	}
	return r
}

// acceptsNull reports whether r is a union with an alternative for null
// (v1 RequestId), which decodes null itself.
func acceptsNull(r ir.Ref) bool {
	u := underlying(r)
	if u.Kind != ir.RefNamed || u.Type.Kind != ir.Union {
		return false
	}
	for _, v := range u.Type.Union.Variants {
		if v.JSON == ir.KindNull {
			return true
		}
	}
	return false
}

// isRaw reports whether r is free-form JSON.
func isRaw(r ir.Ref) bool {
	u := underlying(r)
	return u.Kind == ir.RefRaw || (u.Kind == ir.RefNamed && u.Type.Kind == ir.Raw)
}

// isObject reports whether t is a struct, or another name for one: a type
// without decodeJSON, decoded as an object through its decodeRest.
func isObject(t *ir.Type) bool {
	if t.Kind == ir.Named && t.Underlying.Kind == ir.RefNamed {
		t = t.Underlying.Type
	}
	return t.Kind == ir.Struct
}

// hasDecoder reports whether values of t have a generated decoder:
// decodeJSON, or for an object decodeRest.
func hasDecoder(t *ir.Type) bool {
	switch t.Kind {
	case ir.Struct, ir.Union:
		return true
	case ir.Enum:
		return !t.Enum.Open
	case ir.Named:
		u := t.Underlying
		return u.Kind == ir.RefNamed && (u.Type.Kind == ir.Struct || u.Type.Kind == ir.Union)
	}
	return false
}

// hasCheck reports whether values of r are checked beyond their Go type:
// r's own Check, or that of the defined type r names.
func hasCheck(r ir.Ref) bool {
	return r.Check != nil || (r.Kind == ir.RefNamed && r.Type.Kind == ir.Named && r.Type.Underlying.Check != nil)
}

// elemDecoder is a function value of type func(*T, *decoder) error that
// decodes one value of r and checks it.
func elemDecoder(r ir.Ref) jen.Code {
	if r.Kind == ir.RefArray || r.Kind == ir.RefMap {
		return checkedFunc(r.Check, goType(r), elemCall(r, jen.Id("p")))
	}
	return checked(r.Check, goType(r), typeDecoder(r))
}

// typeDecoder is elemDecoder without r's own Check; the Check of a defined
// type over a scalar, list or map is made by its decoder.
func typeDecoder(r ir.Ref) jen.Code {
	goT := goType(r)
	switch r.Kind {
	case ir.RefNamed:
		t := r.Type
		switch {
		case isObject(t) && t.Kind == ir.Named:
			return checked(t.Underlying.Check, goT, jen.Id("decodeObject").Index(jen.Op("*").Add(goT)))
		case isObject(t):
			return jen.Id("decodeObject").Index(jen.Op("*").Add(goT))
		case hasDecoder(t) && t.Kind == ir.Named:
			return checked(t.Underlying.Check, goT, jen.Parens(jen.Op("*").Add(goT)).Dot("decodeJSON"))
		case hasDecoder(t):
			return jen.Parens(jen.Op("*").Add(goT)).Dot("decodeJSON")
		case t.Kind == ir.Raw:
			return jen.Id("decodeRaw").Index(goT)
		case t.Kind == ir.Enum && t.Enum.Integer:
			return jen.Id("decodeInt").Index(goT)
		case t.Kind == ir.Enum:
			return jen.Id("decodeString").Index(goT)
		}
		u := *t.Underlying
		switch u.Kind {
		case ir.RefString, ir.RefBool, ir.RefInt, ir.RefFloat:
			return checked(u.Check, goT, scalarDecoder(u).Index(goT))
		case ir.RefRaw:
			return checked(u.Check, goT, jen.Id(rawDecoder(u)).Index(goT))
		}
		// A defined type over a list, a map or another defined type.
		u.Check = nil
		return checkedFunc(t.Underlying.Check, goT, elemCall(u, jen.Parens(jen.Op("*").Add(goType(u))).Call(jen.Id("p"))))
	case ir.RefString, ir.RefBool, ir.RefInt, ir.RefFloat:
		return scalarDecoder(r).Index(goT)
	case ir.RefArray, ir.RefMap:
		return elemFunc(goT, elemCall(r, jen.Id("p")))
	}
	return jen.Id(rawDecoder(r)).Index(goT)
}

// nestedDecoder is elemDecoder for the values of a list or map: a list or
// map there is decoded by the runtime's sliceDecoder or mapDecoder, so that
// the code for lists nested n deep grows with n, not n².
func nestedDecoder(r ir.Ref) jen.Code {
	switch r.Kind {
	case ir.RefArray:
		return jen.Id("sliceDecoder").Call(nestedDecoder(*r.Elem))
	case ir.RefMap:
		return jen.Id("mapDecoder").Call(nestedDecoder(*r.Elem))
	}
	return elemDecoder(r)
}

// elemCall decodes a value of r, a list, a map or a named type, into ptr.
func elemCall(r ir.Ref, ptr jen.Code) jen.Code {
	switch r.Kind {
	case ir.RefArray:
		return jen.Id("decodeSlice").Call(jen.Id("d"), ptr, nestedDecoder(*r.Elem))
	case ir.RefMap:
		return jen.Id("decodeMap").Call(jen.Id("d"), ptr, nestedDecoder(*r.Elem))
	}
	return jen.Add(elemDecoder(r)).Call(ptr, jen.Id("d"))
}

// elemFunc is `func(p *T, d *decoder) error { return call }`.
func elemFunc(goT, call jen.Code) jen.Code {
	return jen.Func().Params(jen.Id("p").Op("*").Add(goT), decoderParam).Error().Block(jen.Return(call))
}

func scalarDecoder(r ir.Ref) *jen.Statement {
	switch r.Kind {
	case ir.RefString:
		return jen.Id("decodeString")
	case ir.RefBool:
		return jen.Id("decodeBool")
	case ir.RefFloat:
		return jen.Id("decodeFloat")
	}
	if r.Unsigned {
		return jen.Id("decodeUint")
	}
	return jen.Id("decodeInt")
}

func rawDecoder(r ir.Ref) string {
	if r.Object {
		return "decodeRawObject"
	}
	return "decodeRaw"
}

// encodeKind is how a value is written.
type encodeKind int

const (
	encString encodeKind = iota
	encBool
	encInt
	encUint
	encFloat
	encRaw
	encAppender // a union, which has appendJSON
	encObject   // a struct, which has appendMembers: objectMembers, or the runtime's encodeObject
	encSlice
	encMap
)

// kindOf returns how a value of r is written.
func kindOf(r ir.Ref) encodeKind {
	switch r.Kind {
	case ir.RefNamed:
		t := r.Type
		switch t.Kind {
		case ir.Struct:
			return encObject
		case ir.Union:
			return encAppender
		case ir.Raw:
			return encRaw
		case ir.Enum:
			if t.Enum.Integer {
				return encInt
			}
			return encString
		}
		return kindOf(*t.Underlying)
	case ir.RefString:
		return encString
	case ir.RefBool:
		return encBool
	case ir.RefInt:
		if r.Unsigned {
			return encUint
		}
		return encInt
	case ir.RefFloat:
		return encFloat
	case ir.RefArray:
		return encSlice
	case ir.RefMap:
		return encMap
	}
	return encRaw
}

// scalarAppenders are the runtime functions that append a scalar; those of
// strings, booleans and integers cannot fail.
var scalarAppenders = map[encodeKind]string{
	encString: "appendString", encBool: "appendBool", encInt: "appendInt", encUint: "appendUint",
	encFloat: "appendFloat", encRaw: "appendRaw",
}

// valueEncode appends the value x of r; ptr says that x points to it, and
// convert that x has a defined type whose lists and maps need converting.
// It returns the call that appends, and whether the call can fail.
func valueEncode(r ir.Ref, x *jen.Statement, ptr, convert bool) (call jen.Code, fallible bool) {
	k := kindOf(r)
	value := x
	if ptr {
		value = jen.Op("*").Add(x)
	}
	switch k {
	case encString, encBool, encInt, encUint:
		return jen.Id(scalarAppenders[k]).Call(jen.Id("b"), value), false
	case encFloat, encRaw:
		return jen.Id(scalarAppenders[k]).Call(jen.Id("b"), value), true
	case encAppender:
		return x.Dot("appendJSON").Call(jen.Id("b")), true
	case encObject:
		if !ptr {
			x = jen.Op("&").Add(x)
		}
		return jen.Id("encodeObject").Call(x, jen.Id("b")), true
	}
	u := underlying(r)
	if convert || r.Kind == ir.RefNamed {
		value = goType(u).Call(value)
	}
	return containerCall(u, value), true
}

// appendStmt is the statement that appends with call.
func appendStmt(call jen.Code, fallible bool) jen.Code {
	if fallible {
		return tryAppend(call)
	}
	return jen.Id("b").Op("=").Add(call)
}

// containerCall appends the list or map value of u.
func containerCall(u ir.Ref, value jen.Code) jen.Code {
	helper := "appendSlice"
	if u.Kind == ir.RefMap {
		helper = "appendMap"
	}
	return jen.Id(helper).Call(jen.Id("b"), value, nestedEncoder(*u.Elem))
}

// nestedEncoder is elemEncoder for the values of a list or map: a list or
// map there is encoded by the runtime's sliceEncoder or mapEncoder, so that
// the code for lists nested n deep grows with n, not n².
func nestedEncoder(r ir.Ref) jen.Code {
	switch r.Kind {
	case ir.RefArray:
		return jen.Id("sliceEncoder").Call(nestedEncoder(*r.Elem))
	case ir.RefMap:
		return jen.Id("mapEncoder").Call(nestedEncoder(*r.Elem))
	}
	return elemEncoder(r)
}

// elemEncoder is a function value of type func(*T, []byte) ([]byte, error)
// that appends one value of r, for the items of lists and maps.
func elemEncoder(r ir.Ref) jen.Code {
	goT := goType(r)
	switch k := kindOf(r); k {
	case encAppender:
		return jen.Parens(jen.Op("*").Add(goT)).Dot("appendJSON")
	case encObject:
		return jen.Id("encodeObject").Index(jen.Op("*").Add(goT))
	case encSlice, encMap:
		u := underlying(r)
		var value jen.Code = jen.Op("*").Id("p")
		if r.Kind == ir.RefNamed {
			value = goType(u).Call(value)
		}
		return jen.Func().Params(jen.Id("p").Op("*").Add(goT), bufParam).Params(encodeResult...).Block(
			jen.Return(containerCall(u, value)))
	default:
		return jen.Id("encode" + strings.TrimPrefix(scalarAppenders[k], "append")).Index(goT)
	}
}

// checked wraps dec, a decoder of values of Go type goT, in the checks of
// c (the schema's validation keywords, as the IR decided them), each a
// call of a small runtime helper in decode_checks.go that returns the
// decoder's error or its own:
//
//	func(p *string, d *decoder) error { return checkLength(decodeString(p, d), p, 1, -1) }
//
// It returns dec itself when c is nil.
func checked(c *ir.Check, goT jen.Code, dec jen.Code) jen.Code {
	if c == nil {
		return dec
	}
	return checkedBody(c, goT, dec, jen.Add(dec).Call(jen.Id("p"), jen.Id("d")))
}

// checkedFunc is checked for the decoder elemFunc(goT, body).
func checkedFunc(c *ir.Check, goT jen.Code, body jen.Code) jen.Code {
	if c == nil {
		return elemFunc(goT, body)
	}
	return checkedBody(c, goT, elemFunc(goT, body), body)
}

// checkedBody is the decoder of checked, whose call dec(p, d) is body.
func checkedBody(c *ir.Check, goT, dec, body jen.Code) jen.Code {
	p, d := jen.Id("p"), jen.Id("d")
	if c.Never {
		return elemFunc(goT, jen.Id("d").Dot("never").Call(p))
	}
	call := body
	if c.Values != nil {
		args := []jen.Code{d, p, dec}
		for _, v := range c.Values {
			args = append(args, jen.Lit(v))
		}
		call = jen.Id("checkValues").Call(args...)
	}
	if c.MinLength >= 0 || c.MaxLength >= 0 {
		call = jen.Id("checkLength").Call(call, p, jen.Lit(max(c.MinLength, 0)), jen.Lit(c.MaxLength))
	}
	if c.Pattern != "" {
		call = jen.Id("checkPattern").Call(call, p, jen.Lit(c.Pattern))
	}
	if c.MinItems >= 0 || c.MaxItems >= 0 {
		call = jen.Id("checkItems").Call(call, p, jen.Lit(max(c.MinItems, 0)), jen.Lit(c.MaxItems))
	}
	if c.Min != "" || c.Max != "" {
		call = jen.Id("checkRange").Call(call, p, boundLit(c.Min), boundLit(c.Max), rangeFlags(c))
	}
	return elemFunc(goT, call)
}

// boundLit is a bound of checkRange: its literal, or 0 when there is none
// (the flags say which bounds there are).
func boundLit(lit string) jen.Code {
	if lit == "" {
		return jen.Lit(0)
	}
	return jen.Id(lit)
}

// rangeFlags are the flags of checkRange for c's bounds.
func rangeFlags(c *ir.Check) jen.Code {
	var names []string
	if c.Min != "" {
		names = append(names, "hasMin")
		if c.ExclusiveMin {
			names = append(names, "exclusiveMin")
		}
	}
	if c.Max != "" {
		names = append(names, "hasMax")
		if c.ExclusiveMax {
			names = append(names, "exclusiveMax")
		}
	}
	out := jen.Id(names[0])
	for _, n := range names[1:] {
		out = out.Op("|").Id(n)
	}
	return out
}

// tryAppend is `if b, err = call; err != nil { return nil, err }`.
func tryAppend(call jen.Code) jen.Code {
	return jen.If(jen.List(jen.Id("b"), jen.Err()).Op("=").Add(call), jen.Err().Op("!=").Nil()).Block(
		jen.Return(jen.Nil(), jen.Err()))
}

// appendLit is `b = append(b, `text`...)`.
func appendLit(text string) jen.Code {
	return jen.Id("b").Op("=").Append(jen.Id("b"), rawLit(text).Op("..."))
}

// appendName is `b = appendName(b, `text`)`: the runtime appends the name
// of a member, or the tag member of a variant, out of line.
func appendName(text string) jen.Code {
	return jen.Id("b").Op("=").Id("appendName").Call(jen.Id("b"), rawLit(text))
}

// rawLit is text as a raw string literal when it can be one, which reads
// better for JSON.
func rawLit(text string) *jen.Statement {
	if !strings.Contains(text, "`") {
		return jen.Op("`" + text + "`")
	}
	return jen.Lit(text)
}

// quote is s as a JSON string.
func quote(s string) string {
	q, _ := json.Marshal(s)
	return string(q)
}

// Scalar codecs. A defined type whose JSON is a string, a number or a
// boolean (SessionID, ProtocolVersion, an enum) is decoded inside a struct
// by the runtime's scalar decoders, which reject null and accept integers
// written 1.0 or 1e2. Its own UnmarshalJSON and MarshalJSON use the same
// decoder and encoder, so that a bare value reads and writes as a member
// does, where encoding/json would turn null into the zero value and reject
// 1.0.

// isScalar reports whether the JSON of t is a string, a number or a
// boolean.
func isScalar(t *ir.Type) bool {
	switch kindOf(ir.Ref{Kind: ir.RefNamed, Type: t}) {
	case encString, encBool, encInt, encUint, encFloat:
		return true
	}
	return false
}

// scalarCodecs emits UnmarshalJSON, unless t has one already (a closed
// enum), and MarshalJSON for t, whose JSON is a scalar.
/*
	func (v *SessionID) UnmarshalJSON(data []byte) error {
		return decodeWith(data, v, decodeString[SessionID])
	}

	func (v SessionID) MarshalJSON() ([]byte, error) {
		return encodeWith(&v, encodeString[SessionID])
	}
*/
func scalarCodecs(f *jen.File, t *ir.Type) {
	ref := ir.Ref{Kind: ir.RefNamed, Type: t}
	if !hasDecoder(t) {
		f.Comment("UnmarshalJSON decodes the value as a member of type " + t.GoName + " is decoded: null is an")
		f.Comment("error, and an integer may be written 1.0 or 1e2 when it is integral and in range.")
		f.Func().Params(receiver(t.GoName)).Id("UnmarshalJSON").Params(jen.Id("data").Index().Byte()).Error().Block(
			jen.Return(jen.Id("decodeWith").Call(jen.Id("data"), jen.Id(recvName), elemDecoder(ref))))
		f.Line()
	}
	f.Comment("MarshalJSON encodes the value as a member of type " + t.GoName + " is encoded.")
	f.Func().Params(jen.Id(recvName).Id(t.GoName)).Id("MarshalJSON").Params().Params(jen.Index().Byte(), jen.Error()).Block(
		jen.Return(jen.Id("encodeWith").Call(jen.Op("&").Id(recvName), elemEncoder(ref))))
	f.Line()
}
