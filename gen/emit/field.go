package emit

import (
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/acpgen/acpgen/gen/ir"
	"github.com/acpgen/acpgen/gen/names"
)

// Fields: the members of an object as struct fields, their Go types and
// tags, decoded and encoded by the rules of the schema.
//
// Member rules: the standard library decodes a struct without noticing a
// missing member and knows nothing of the schema's x-deserialize-*
// keywords; the reference implementation does both, and so do these
// decoders, one rule set per member. A member is written as encoding/json
// would write the field with its tag, except that an optional list or map
// is left out only when nil, not when empty, and a required one that is
// nil is written empty.

// FieldType returns the Go type that generated code declares for field f
// ("*string", "[]PlanEntry", "Nullable[bool]"), so that two revisions can
// be compared without generating them.
func FieldType(f *ir.Field) string { return fmt.Sprintf("%#v", fieldType(f)) }

// structFields renders fields as struct members.
func structFields(fields []*ir.Field) []jen.Code {
	var out []jen.Code
	for i, f := range fields {
		if i > 0 && f.Doc != "" {
			out = append(out, jen.Line())
		}
		out = append(out, comment(f.GoName, f.Doc))
		out = append(out, jen.Id(f.GoName).Add(fieldType(f)).Tag(jsonTag(f)))
	}
	return out
}

// fieldType returns the Go type of field f.
func fieldType(f *ir.Field) *jen.Statement {
	if f.NullMeans {
		return jen.Id("Nullable").Types(goType(f.Type))
	}
	if pointer(f) {
		return jen.Op("*").Add(goType(f.Type))
	}
	return goType(f.Type)
}

// pointer reports whether the field is a pointer in Go: optional or nullable
// values whose type has no nil of its own.
func pointer(f *ir.Field) bool {
	return (!f.Required || f.Nullable) && !nilable(f.Type)
}

func jsonTag(f *ir.Field) map[string]string {
	tag := f.JSONName
	if !f.Required {
		tag += ",omitempty"
	}
	return map[string]string{"json": tag}
}

// ownFields are the fields of t that its own declaration holds: all of an
// unstable type's, the stable ones of a stable type.
func ownFields(t *ir.Type) []*ir.Field {
	if t.Unstable {
		return t.Fields
	}
	var out []*ir.Field
	for _, f := range t.Fields {
		if !f.Unstable {
			out = append(out, f)
		}
	}
	return out
}

// fieldDecode is the call that decodes the member of field fl.
func fieldDecode(fl *ir.Field) jen.Code {
	ptr := jen.Op("&").Id(recvName).Dot(fl.GoName)
	if shared := sharedFieldDecoder(fl); shared != "" {
		// decodeMetaField(d, &v.Meta)
		return jen.Id(shared).Call(jen.Id("d"), ptr)
	}
	rules := fieldRules(fl)
	switch {
	case plainMember(fl):
		// decodeField would only add its own check for null.
		if fl.Type.Kind == ir.RefNamed && isObject(fl.Type.Type) {
			return jen.Id("d").Dot("object").Call(ptr)
		}
		if fl.Type.Kind == ir.RefNamed && hasDecoder(fl.Type.Type) {
			return jen.Id(recvName).Dot(fl.GoName).Dot("decodeJSON").Call(jen.Id("d"))
		}
		// decodeString(&v.SessionID, d): the type argument is inferred.
		return plainScalar(fl.Type).Call(ptr, jen.Id("d"))
	case skipElem(fl) != nil && fl.Type.Check == nil:
		// decodeList(d, &v.Entries, decodeObject[*PlanEntry], defaultOnError|emptyList|dropInvalid)
		return jen.Id("decodeList").Call(jen.Id("d"), ptr, elemDecoder(*skipElem(fl)), rulesExpr(append(ruleNames(fl), "dropInvalid")))
	case skipElem(fl) != nil:
		return jen.Id(fieldHelper(fl)).Call(jen.Id("d"), ptr, itemsDecoder(fl.Type), rules)
	case fl.NullMeans:
		elem := elemDecoder(fl.Type)
		if fl.SkipInvalidItems && fl.Type.Kind == ir.RefArray {
			elem = itemsDecoder(fl.Type)
		}
		return jen.Id("decodeNullableField").Call(jen.Id("d"), ptr, elem, rules)
	case pointer(fl) && uncheckedObject(fl.Type):
		// decodeObjectField(d, &v.Annotations, newObject[Annotations], nullOK)
		alloc := jen.Id("newObject").Index(goType(fl.Type))
		return jen.Id("decodeObjectField").Call(jen.Id("d"), ptr, alloc, rules)
	case pointer(fl):
		return jen.Id("decodePointerField").Call(jen.Id("d"), ptr, elemDecoder(fl.Type), rules)
	case fl.Type.Kind == ir.RefArray && fl.Type.Check == nil:
		// decodeList(d, &v.Prompt, (*ContentBlock).decodeJSON, 0)
		return jen.Id("decodeList").Call(jen.Id("d"), ptr, nestedDecoder(*fl.Type.Elem), rules)
	}
	return jen.Id(fieldHelper(fl)).Call(jen.Id("d"), ptr, elemDecoder(fl.Type), rules)
}

// sharedFieldDecoder is the runtime's own decoder of a member of the most
// frequent forms, or "": an object's _meta (a free-form object, null kept,
// a bad value dropped) and an optional string whose bad value is dropped.
// Its call is shorter than the generic one, which passes a decoder and
// rules, and a member of these forms is in most structs.
func sharedFieldDecoder(fl *ir.Field) string {
	r := fl.Type
	if r.Check != nil || fl.NullMeans || fl.SkipInvalidItems {
		return ""
	}
	rules := strings.Join(ruleNames(fl), "|")
	switch {
	case r.Kind == ir.RefRaw && r.Object && !pointer(fl) && rules == "nullValue|defaultOnError":
		return "decodeMetaField"
	case r.Kind == ir.RefString && pointer(fl) && rules == "nullOK|defaultOnError":
		return "decodeOptionalStringField"
	}
	return ""
}

// uncheckedObject reports whether r is a struct, or another name for one,
// without checks of its own: a value the runtime decodes with d.object.
func uncheckedObject(r ir.Ref) bool {
	return r.Kind == ir.RefNamed && isObject(r.Type) && !hasCheck(r)
}

// fieldHelper is the runtime's decodeField, or its form for a list or a map
// whose default is empty, which sets that default.
func fieldHelper(fl *ir.Field) string {
	for _, name := range ruleNames(fl) {
		switch name {
		case "emptyList":
			return "decodeListField"
		case "emptyMap":
			return "decodeMapField"
		}
	}
	return "decodeField"
}

// itemsDecoder decodes a list of r whose invalid items are dropped, and
// checks what is left:
//
//	func(p *[]E, d *decoder) error { return decodeItems(d, p, elem) }
func itemsDecoder(r ir.Ref) jen.Code {
	return checkedFunc(r.Check, goType(r), jen.Id("decodeItems").Call(jen.Id("d"), jen.Id("p"), elemDecoder(*r.Elem)))
}

// plainMember reports whether fl has no decoding rule and a Go type whose
// decoder reports null as decodeField does, as a mismatch for a pointer to
// the field's own type: a scalar, a closed enum, a struct or a tagged union.
func plainMember(fl *ir.Field) bool {
	if len(ruleNames(fl)) > 0 || fl.NullMeans || pointer(fl) || skipElem(fl) != nil || hasCheck(fl.Type) {
		return false
	}
	r := fl.Type
	switch r.Kind {
	case ir.RefString, ir.RefBool, ir.RefInt, ir.RefFloat:
		return true
	case ir.RefNamed:
	default:
		return false
	}
	switch t := r.Type; t.Kind {
	case ir.Struct, ir.Enum:
		return true
	case ir.Union:
		return t.Union.Tag != ""
	case ir.Named:
		u := *t.Underlying
		switch u.Kind {
		case ir.RefString, ir.RefBool, ir.RefInt, ir.RefFloat:
			return true
		}
	}
	return false
}

// plainScalar is the runtime's decoder of r, a scalar, a named scalar or an
// enum without a decoder of its own.
func plainScalar(r ir.Ref) *jen.Statement {
	if r.Kind != ir.RefNamed {
		return scalarDecoder(r)
	}
	if t := r.Type; t.Kind == ir.Enum {
		if t.Enum.Integer {
			return jen.Id("decodeInt")
		}
		return jen.Id("decodeString")
	}
	return scalarDecoder(*r.Type.Underlying)
}

// fieldRules is the rule set of a member, as a constant expression.
func fieldRules(fl *ir.Field) jen.Code {
	return rulesExpr(ruleNames(fl))
}

// rulesExpr is the rule set of names, as a constant expression.
func rulesExpr(names []string) jen.Code {
	if len(names) == 0 {
		return jen.Lit(0)
	}
	out := jen.Id(names[0])
	for _, n := range names[1:] {
		out = out.Op("|").Id(n)
	}
	return out
}

// ruleNames are the names of the rules of a member.
func ruleNames(fl *ir.Field) []string {
	var names []string
	// Null is zero for a member the schema lets be null; free-form JSON
	// keeps it. Elsewhere null is an error, unless a rule defaults it.
	switch {
	case isRaw(fl.Type) && (fl.Nullable || fl.Null != ir.NullRejected || !fl.Type.Object), acceptsNull(fl.Type):
		names = append(names, "nullValue")
	case fl.Nullable:
		names = append(names, "nullOK")
	}
	if fl.DefaultOnError {
		names = append(names, "defaultOnError")
	}
	if fl.DefaultOnNull {
		names = append(names, "defaultOnNull")
	}
	if (fl.DefaultOnError || fl.DefaultOnNull) && !fl.Nullable && !fl.NullMeans {
		// The default of a list or a map that cannot be null is empty, as
		// the reference decoder makes it, and is written back as [] or {}.
		switch underlying(fl.Type).Kind {
		case ir.RefArray:
			names = append(names, "emptyList")
		case ir.RefMap:
			names = append(names, "emptyMap")
		}
	}
	return names
}

// skipElem is the element type of a field whose invalid items are dropped,
// or nil.
func skipElem(f *ir.Field) *ir.Ref {
	if !f.SkipInvalidItems || f.NullMeans {
		return nil
	}
	if f.Type.Kind != ir.RefArray {
		return nil
	}
	return f.Type.Elem
}

// fieldEncode appends the member of field fl, when it is present; fallible
// says that the code can fail.
func fieldEncode(fl *ir.Field) (code jen.Code, fallible bool) {
	x := func() *jen.Statement { return jen.Id(recvName).Dot(fl.GoName) }
	text := "," + quote(fl.JSONName) + ":"
	name := appendName(text)
	null := appendLit("null")
	switch {
	case fl.NullMeans:
		call := jen.Id("appendNullable").Call(jen.Id("b"), jen.Op("&").Add(x()), elemEncoder(fl.Type))
		return jen.If(x().Dot("Present")).Block(name, tryAppend(call)), true
	case pointer(fl):
		call, fallible := valueEncode(fl.Type, x(), true, false)
		value := appendStmt(call, fallible)
		if usesStart(fl) {
			value = objectMembers(x())
		}
		switch {
		case !fl.Required && defaulted(fl):
			// The default object a constructor filled in is left out
			// while it is empty: omitEmptyObject.
			return jen.If(x().Op("!=").Nil()).Block(
				jen.Id("member").Op(":=").Len(jen.Id("b")), name, value,
				jen.If(x().Dot(names.DefaultedMark)).Block(
					jen.Id("b").Op("=").Id("omitEmptyObject").Call(jen.Id("b"), jen.Id("member")))), fallible
		case optionalObject(fl):
			// b, err = appendOptionalObject(b, `,"annotations":`, v.Annotations, v.Annotations != nil)
			call := jen.Id("appendOptionalObject").Call(jen.Id("b"), rawLit(text), x(), x().Op("!=").Nil())
			return tryAppend(call), true
		case !fl.Required && optionalAppenders[kindOf(fl.Type)] != "":
			// b = appendOptionalString(b, `,"title":`, v.Title)
			k := kindOf(fl.Type)
			return appendStmt(jen.Id(optionalAppenders[k]).Call(jen.Id("b"), rawLit(text), x()), k == encFloat), k == encFloat
		case !fl.Required:
			return jen.If(x().Op("!=").Nil()).Block(name, value), fallible
		}
		return jen.Add(name).Line().If(x().Op("==").Nil()).Block(null).Else().Block(value), fallible
	case nilable(fl.Type):
		call, fallible := valueEncode(fl.Type, x(), false, false)
		value := appendStmt(call, fallible)
		raw := isRaw(fl.Type)
		switch {
		case !fl.Required && fl.JSONName == "_meta" && fl.Type.Kind == ir.RefRaw:
			// b, err = appendMeta(b, v.Meta)
			return tryAppend(jen.Id("appendMeta").Call(jen.Id("b"), x())), true
		case !fl.Required && raw:
			return tryAppend(jen.Id("appendOptionalRaw").Call(jen.Id("b"), rawLit(text), x())), true
		case !fl.Required:
			return jen.If(x().Op("!=").Nil()).Block(name, value), fallible
		case fl.Nullable && !raw:
			return jen.Add(name).Line().If(x().Op("==").Nil()).Block(null).Else().Block(value), fallible
		}
	}
	if usesStart(fl) {
		return jen.Add(name).Line().Add(objectMembers(x())), true
	}
	call, fallible := valueEncode(fl.Type, x(), false, false)
	return jen.Add(name).Line().Add(appendStmt(call, fallible)), fallible
}

// usesStart reports whether fl is a struct member that fieldEncode writes
// with objectMembers: all but the optional ones of optionalObject.
func usesStart(fl *ir.Field) bool {
	return !fl.NullMeans && kindOf(fl.Type) == encObject && !optionalObject(fl)
}

// optionalObject reports whether fl is an optional struct member without a
// default, which the runtime's appendOptionalObject writes.
func optionalObject(fl *ir.Field) bool {
	return !fl.NullMeans && kindOf(fl.Type) == encObject && pointer(fl) && !fl.Required && !defaulted(fl)
}

// objectMembers appends the struct member x as an object, calling its
// appendMembers and closeObject here, statically, where encodeObject would
// call it through its type argument, so that v and what it points to would
// escape:
//
//	start = len(b)
//	b, err = v.ToolCall.appendMembers(b)
//	if b, err = closeObject(b, start, err); err != nil {
//		return nil, err
//	}
func objectMembers(x *jen.Statement) jen.Code {
	return jen.Id("start").Op("=").Len(jen.Id("b")).Line().
		List(jen.Id("b"), jen.Err()).Op("=").Add(x).Dot("appendMembers").Call(jen.Id("b")).Line().
		Add(tryAppend(jen.Id("closeObject").Call(jen.Id("b"), jen.Id("start"), jen.Err())))
}

// optionalAppenders are the runtime's encoders of an optional member of a
// scalar kind held by a pointer, which write nothing for nil.
var optionalAppenders = map[encodeKind]string{
	encString: "appendOptionalString", encBool: "appendOptionalBool", encInt: "appendOptionalInt",
	encUint: "appendOptionalUint", encFloat: "appendOptionalFloat",
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
