package emit

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/acpgen/acpgen/gen/ir"
)

// Required members. The standard library decodes a struct without noticing
// a missing member; the reference implementation rejects it. Generated
// decoders shadow each required field with required[T], which decodes the
// member straight into the field and records that it was there.

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
	values := jen.Dict{jen.Id("plain"): jen.Parens(jen.Op("*").Id("plain")).Call(jen.Id(recv))}
	var checks []jen.Code
	for _, f := range fields {
		if !f.Required {
			continue
		}
		members = append(members, jen.Id(f.GoName).Id("required").Types(fieldType(f)).Tag(map[string]string{"json": f.JSONName}))
		init := jen.Dict{jen.Id("field"): jen.Op("&").Id(recv).Dot(f.GoName)}
		if f.Nullable {
			init[jen.Id("nullOK")] = jen.True()
		}
		values[jen.Id(f.GoName)] = jen.Id("required").Types(fieldType(f)).Values(init)
		checks = append(checks, jen.If(jen.Op("!").Id("probe").Dot(f.GoName).Dot("present")).Block(
			jen.Return(jen.Id("typeError").Call(jen.Lit(fmt.Sprintf("object without %q", f.JSONName)), jen.Id(recv), jen.Lit(f.JSONName)))))
	}
	out := []jen.Code{
		jen.Type().Id("plain").Id(goName),
		jen.Id("probe").Op(":=").Struct(members...).Values(values),
		jen.If(jen.Err().Op(":=").Qual(jsonPkg, "Unmarshal").Call(jen.Id("data"), jen.Op("&").Id("probe")), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
	}
	return append(out, checks...)
}

func hasRequired(fields []*ir.Field) bool {
	for _, f := range fields {
		if f.Required {
			return true
		}
	}
	return false
}

// requiredDecoder emits UnmarshalJSON for a struct (or a variant without
// payloads) that has required members.
func requiredDecoder(f *jen.File, goName string, fields []*ir.Field) {
	if !hasRequired(fields) {
		return
	}
	body := decodeFields(goName, "v", fields)
	body = append(body, jen.Return(jen.Nil()))
	f.Comment("UnmarshalJSON decodes the object and fails on a missing required member.")
	f.Func().Params(jen.Id("v").Op("*").Id(goName)).Id("UnmarshalJSON").Params(jen.Id("data").Index().Byte()).Error().Block(body...)
	f.Line()
}
