package emit

import (
	"encoding/json"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/acpgen/acpgen/gen/ir"
	"github.com/acpgen/acpgen/gen/names"
)

// Encoders. Every object type gets appendMembers, which appends its
// members each after a comma, and appendJSON, which makes them an object
// (the runtime in encode.go); MarshalJSON is appendJSON into a pooled
// buffer. A member is written as encoding/json would write the field with
// its tag, except that an optional list or map is left out only when nil,
// not when empty, and a required one that is nil is written empty.

// encodeSpec describes the encoders of one Go struct.
type encodeSpec struct {
	goName string
	tag    string      // the tag member of a variant, `"type":"text"`, or ""
	embeds []string    // embedded payloads, whose members come after the tag
	fields []*ir.Field // the struct's own fields
	exts   []string    // embedded extension structs, whose members come after the fields
	extra  bool        // the Extra map, whose members come last
	keep   bool        // the members kept in unknownMembers, which come last
	// rawFirst are statements that start appendJSON: writing an unknown
	// variant kept raw as the whole value.
	rawFirst []jen.Code
	// membersOnly leaves out appendJSON and MarshalJSON.
	membersOnly bool
}

// structEncodeSpec describes the encoders of struct type t under goName.
func structEncodeSpec(t *ir.Type, goName string) encodeSpec {
	s := encodeSpec{goName: goName, fields: ownFields(t), extra: t.Extra}
	for _, key := range t.ExtensionKeys() {
		s.exts = append(s.exts, t.Extensions[key])
	}
	return s
}

var (
	bufParam     = jen.Id("b").Index().Byte()
	encodeResult = []jen.Code{jen.Index().Byte(), jen.Error()}
)

// tryAppend is `if b, err = call; err != nil { return nil, err }`.
func tryAppend(call jen.Code) jen.Code {
	return jen.If(jen.List(jen.Id("b"), jen.Err()).Op("=").Add(call), jen.Err().Op("!=").Nil()).Block(
		jen.Return(jen.Nil(), jen.Err()))
}

// appendLit is `b = append(b, `text`...)`.
func appendLit(text string) jen.Code {
	lit := jen.Lit(text)
	if !strings.Contains(text, "`") {
		lit = jen.Op("`" + text + "`")
	}
	return jen.Id("b").Op("=").Append(jen.Id("b"), lit.Op("..."))
}

// quote is s as a JSON string.
func quote(s string) string {
	q, _ := json.Marshal(s)
	return string(q)
}

// objectEncoders emits appendMembers, appendJSON and MarshalJSON of a struct.
func objectEncoders(f *jen.File, s encodeSpec) {
	type step struct {
		code     jen.Code
		fallible bool
		call     jen.Code // a fallible call that is the whole step
	}
	var steps []step
	if s.tag != "" {
		steps = append(steps, step{code: appendLit("," + s.tag)})
	}
	for _, emb := range s.embeds {
		steps = append(steps, step{call: jen.Id(recvName).Dot(emb).Dot("appendMembers").Call(jen.Id("b"))})
	}
	for _, fl := range s.fields {
		code, fallible := fieldEncode(fl)
		steps = append(steps, step{code: code, fallible: fallible})
	}
	for _, x := range s.exts {
		steps = append(steps, step{call: jen.Id(recvName).Dot(x).Dot("appendMembers").Call(jen.Id("b"))})
	}
	if s.extra {
		steps = append(steps, step{call: jen.Id("appendExtra").Call(jen.Id("b"), jen.Id(recvName).Dot("Extra"))})
	}
	if s.keep {
		steps = append(steps, step{code: jen.Id("b").Op("=").Append(jen.Id("b"), jen.Id(recvName).Dot(unknownField).Op("..."))})
	}
	recv := receiver(s.goName)
	if len(steps) == 0 {
		recv = jen.Op("*").Id(s.goName)
	}
	last := jen.Return(jen.Id("b"), jen.Nil())
	if n := len(steps); n > 0 && steps[n-1].call != nil {
		last = jen.Return(steps[n-1].call)
		steps = steps[:n-1]
	}
	var body []jen.Code
	needErr := false
	for _, st := range steps {
		if st.call != nil {
			body = append(body, tryAppend(st.call))
		} else {
			body = append(body, st.code)
		}
		needErr = needErr || st.call != nil || st.fallible
	}
	if needErr {
		body = append([]jen.Code{jen.Var().Err().Error()}, body...)
	}
	body = append(body, last)
	f.Comment("appendMembers appends the members of v, each after a comma.")
	f.Func().Params(recv).Id("appendMembers").Params(bufParam).Params(encodeResult...).Block(body...)
	f.Line()
	if s.membersOnly {
		return
	}
	body = append(append([]jen.Code(nil), s.rawFirst...),
		jen.Id("start").Op(":=").Len(jen.Id("b")),
		jen.List(jen.Id("b"), jen.Err()).Op(":=").Id(recvName).Dot("appendMembers").Call(jen.Id("b")),
		jen.Return(jen.Id("closeObject").Call(jen.Id("b"), jen.Id("start"), jen.Err())),
	)
	f.Func().Params(receiver(s.goName)).Id("appendJSON").Params(bufParam).Params(encodeResult...).Block(body...)
	f.Line()
	marshalMethod(f, s.goName, recvName)
}

// marshalMethod emits MarshalJSON on top of appendJSON.
/*
	func (v T) MarshalJSON() ([]byte, error) {
		buf := encodeBuffer()
		b, err := v.appendJSON(*buf)
		return encoded(buf, b, err)
	}
*/
func marshalMethod(f *jen.File, goName, recv string) {
	f.Comment("MarshalJSON encodes the value with its generated encoder.")
	f.Func().Params(jen.Id(recv).Id(goName)).Id("MarshalJSON").Params().Params(encodeResult...).Block(
		jen.Id("buf").Op(":=").Id("encodeBuffer").Call(),
		jen.List(jen.Id("b"), jen.Err()).Op(":=").Id(recv).Dot("appendJSON").Call(jen.Op("*").Id("buf")),
		jen.Return(jen.Id("encoded").Call(jen.Id("buf"), jen.Id("b"), jen.Err())),
	)
	f.Line()
}

// fieldEncode appends the member of field fl, when it is present; fallible
// says that the code can fail.
func fieldEncode(fl *ir.Field) (code jen.Code, fallible bool) {
	x := func() *jen.Statement { return jen.Id(recvName).Dot(fl.GoName) }
	name := appendLit("," + quote(fl.JSONName) + ":")
	null := appendLit("null")
	switch {
	case fl.NullMeans:
		call := jen.Id("appendNullable").Call(jen.Id("b"), jen.Op("&").Add(x()), elemEncoder(fl.Type))
		return jen.If(x().Dot("Present")).Block(name, tryAppend(call)), true
	case pointer(fl):
		call, fallible := valueEncode(fl.Type, x(), true, false)
		value := appendStmt(call, fallible)
		switch {
		case !fl.Required && defaulted(fl):
			// The default object a constructor filled in is left out
			// while it is empty: omitEmptyObject.
			return jen.If(x().Op("!=").Nil()).Block(
				jen.Id("member").Op(":=").Len(jen.Id("b")), name, value,
				jen.If(x().Dot(names.DefaultedMark)).Block(
					jen.Id("b").Op("=").Id("omitEmptyObject").Call(jen.Id("b"), jen.Id("member")))), fallible
		case !fl.Required:
			return jen.If(x().Op("!=").Nil()).Block(name, value), fallible
		}
		return jen.Add(name).Line().If(x().Op("==").Nil()).Block(null).Else().Block(value), fallible
	case nilable(fl.Type):
		call, fallible := valueEncode(fl.Type, x(), false, false)
		value := appendStmt(call, fallible)
		raw := isRaw(fl.Type)
		switch {
		case !fl.Required && raw:
			return jen.If(jen.Len(x()).Op("!=").Lit(0)).Block(name, value), fallible
		case !fl.Required:
			return jen.If(x().Op("!=").Nil()).Block(name, value), fallible
		case fl.Nullable && !raw:
			return jen.Add(name).Line().If(x().Op("==").Nil()).Block(null).Else().Block(value), fallible
		}
	}
	call, fallible := valueEncode(fl.Type, x(), false, false)
	return jen.Add(name).Line().Add(appendStmt(call, fallible)), fallible
}

// defaulted reports whether fl is a member whose default is an object that
// the constructors fill in (ir.Fill), a struct with the mark.
func defaulted(fl *ir.Field) bool {
	if !fl.DefaultObject || fl.Type.Kind != ir.RefNamed {
		return false
	}
	t := fl.Type.Type
	for t.Kind == ir.Named && t.Underlying.Kind == ir.RefNamed {
		t = t.Underlying.Type
	}
	return t.Defaulted
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
	encAppender // a type with appendJSON
	encSlice
	encMap
)

// kindOf returns how a value of r is written.
func kindOf(r ir.Ref) encodeKind {
	switch r.Kind {
	case ir.RefNamed:
		t := r.Type
		switch t.Kind {
		case ir.Struct, ir.Union:
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
