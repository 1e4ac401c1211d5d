package emit

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/acpgen/acpgen/gen/ir"
)

// Member rules. The standard library decodes a struct without noticing a
// missing member, and knows nothing of the schema's x-deserialize-* keywords;
// the reference implementation does both. Generated decoders shadow each
// field that has a rule with member[T] (or items[E] for
// x-deserialize-skip-invalid-items), which decodes the member straight into
// the field, applies the rule, and records that the member was there.
// Free-form object members (_meta) are json.RawMessage, which takes any JSON:
// their rule checks that the value is an object.

// decodeFields returns the statements that decode the fields of goName
// from data into recv, with extra members (such as a union's tag) read in
// the same pass, and that fail on a missing required member:
/*
	type plain ToolCall
	probe := struct {
		*plain
		ToolCallID required[ToolCallID] `json:"toolCallId"`
	}{plain: (*plain)(v), ToolCallID: required[ToolCallID]{field: &v.ToolCallID}}
	if err := json.Unmarshal(data, &probe); err != nil {
		return err
	}
	if !probe.ToolCallID.present {
		return typeError("object without \"toolCallId\"", v, "toolCallId")
	}
*/
func decodeFields(goName, recv string, fields []*ir.Field, extra ...jen.Code) []jen.Code {
	members := []jen.Code{jen.Op("*").Id("plain")}
	members = append(members, extra...)
	values := []jen.Code{jen.Id("plain").Op(":").Parens(jen.Op("*").Id("plain")).Call(jen.Id(recv))}
	var checks []jen.Code
	for _, f := range fields {
		if !hasRule(f) {
			continue
		}
		shadow := jen.Id("member").Types(fieldType(f))
		if elem := skipElem(f); elem != nil {
			shadow = jen.Id("items").Types(goType(*elem))
		}
		members = append(members, jen.Id(f.GoName).Add(shadow).Tag(map[string]string{"json": f.JSONName}))
		init := []jen.Code{jen.Id("field").Op(":").Op("&").Id(recv).Dot(f.GoName)}
		if r := rules(f); r != nil {
			init = append(init, jen.Id("rules").Op(":").Add(r))
		}
		values = append(values, jen.Id(f.GoName).Op(":").Add(shadow).Values(init...))
		if f.Required {
			checks = append(checks, jen.If(jen.Op("!").Id("probe").Dot(f.GoName).Dot("present")).Block(
				jen.Return(jen.Id("typeError").Call(jen.Lit(fmt.Sprintf("object without %q", f.JSONName)), jen.Id(recv), jen.Lit(f.JSONName)))))
		}
	}
	out := []jen.Code{
		jen.Type().Id("plain").Id(goName),
		jen.Id("probe").Op(":=").Struct(members...).Custom(jen.Options{Open: "{", Close: "}", Separator: ",", Multi: true}, values...),
		jen.If(jen.Err().Op(":=").Qual(jsonPkg, "Unmarshal").Call(jen.Id("data"), jen.Op("&").Id("probe")), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
	}
	return append(out, checks...)
}

func hasRule(f *ir.Field) bool {
	return f.Required || f.DefaultOnError || f.DefaultOnNull || f.SkipInvalidItems || objectOnly(f)
}

// objectOnly reports whether f is free-form JSON that must be an object.
func objectOnly(f *ir.Field) bool {
	return f.Type.Kind == ir.RefRaw && f.Type.Object
}

func hasRules(fields []*ir.Field) bool {
	for _, f := range fields {
		if hasRule(f) {
			return true
		}
	}
	return false
}

// rules is the rules bit set of f, or nil for none.
func rules(f *ir.Field) jen.Code {
	var names []jen.Code
	if f.Nullable {
		names = append(names, jen.Id("nullOK"))
	}
	if f.DefaultOnError {
		names = append(names, jen.Id("defaultOnError"))
	}
	if f.DefaultOnNull {
		names = append(names, jen.Id("defaultOnNull"))
	}
	if objectOnly(f) {
		names = append(names, jen.Id("objectOnly"))
	}
	if len(names) == 0 {
		return nil
	}
	out := jen.Add(names[0])
	for _, n := range names[1:] {
		out = out.Op("|").Add(n)
	}
	return out
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

// requiredDecoder emits UnmarshalJSON for a struct (or a variant without
// payloads) that has members with rules.
func requiredDecoder(f *jen.File, goName string, fields []*ir.Field) {
	if !hasRules(fields) {
		return
	}
	body := []jen.Code{rejectNonObject("v")}
	body = append(body, decodeFields(goName, "v", fields)...)
	body = append(body, jen.Return(jen.Nil()))
	f.Comment("UnmarshalJSON decodes the object by the schema's rules: required members, and the")
	f.Comment("x-deserialize-* keywords (defaults on error or null, invalid array items dropped).")
	f.Func().Params(jen.Id("v").Op("*").Id(goName)).Id("UnmarshalJSON").Params(jen.Id("data").Index().Byte()).Error().Block(body...)
	f.Line()
}
