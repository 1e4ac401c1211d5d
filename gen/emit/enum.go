package emit

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/acpgen/acpgen/gen/ir"
	"github.com/acpgen/acpgen/gen/names"
)

// enum emits one enum type with its constants and methods, then its codec.
func enum(out pair, t *ir.Type) {
	f, en := out.api, t.Enum
	base := jen.String()
	if en.Integer {
		base = jen.Id(fmt.Sprintf("int%d", en.Bits))
	}
	f.Add(typeDoc(t))
	f.Type().Id(t.GoName).Add(base)
	f.Line()
	var defs []jen.Code
	var cases []jen.Code
	for _, v := range en.Values {
		var lit jen.Code = jen.Lit(v.String)
		if en.Integer {
			lit = jen.Lit(int(v.Int))
		}
		defs = append(defs, comment(v.GoName, enumValueDoc(t, v)), jen.Id(v.GoName).Id(t.GoName).Op("=").Add(lit))
		cases = append(cases, jen.Id(v.GoName))
	}
	f.Const().Defs(defs...)
	f.Line()
	f.Comment("IsKnown reports whether v is one of the values defined by this version of the schema.")
	f.Func().Params(jen.Id("v").Id(t.GoName)).Id("IsKnown").Params().Bool().Block(
		jen.Switch(jen.Id("v")).Block(jen.Case(cases...).Block(jen.Return(jen.True()))),
		jen.Return(jen.False()),
	)
	f.Line()
	if en.Open && !en.Integer {
		f.Comment("IsCustom reports whether v is an implementation-specific value: one that begins with \"_\".")
		f.Comment("Other unknown values are reserved for future versions of the protocol.")
		f.Func().Params(jen.Id("v").Id(t.GoName)).Id("IsCustom").Params().Bool().Block(
			jen.Return(jen.Len(jen.Id("v")).Op(">").Lit(0).Op("&&").Id("v").Index(jen.Lit(0)).Op("==").LitRune('_')),
		)
		f.Line()
	}
	if !en.Open {
		closedEnumDecoder(out.codec, t)
	}
	scalarCodecs(out.codec, t)
}

// closedEnumDecoder rejects values the schema does not list.
func closedEnumDecoder(f *jen.File, t *ir.Type) {
	if t.Enum.Integer {
		integerEnumDecoder(f, t)
	} else {
		stringEnumDecoder(f, t)
	}
	f.Line()
	f.Comment("UnmarshalJSON accepts only the values the schema lists.")
	f.Func().Params(receiver(t.GoName)).Id("UnmarshalJSON").Params(jen.Id("data").Index().Byte()).Error().Block(
		jen.Return(jen.Id("decodeBytes").Call(jen.Id("data"), jen.Id(recvName))))
	f.Line()
}

// integerEnumDecoder decodes a closed integer enum.
func integerEnumDecoder(f *jen.File, t *ir.Type) {
	what := jen.Lit("number ").Op("+").Qual("strconv", "FormatInt").Call(jen.Int64().Call(jen.Id("s")), jen.Lit(10))
	f.Func().Params(receiver(t.GoName)).Id("decodeJSON").Params(decoderParam).Error().Block(
		jen.Var().Id("s").Id(t.GoName),
		jen.If(jen.Err().Op(":=").Id("decodeInt").Call(jen.Op("&").Id("s"), jen.Id("d")), jen.Err().Op("!=").Nil()).Block(
			jen.Return(jen.Err()),
		),
		jen.If(jen.Op("!").Id("s").Dot("IsKnown").Call()).Block(
			jen.Return(jen.Id("typeError").Call(jen.Lit("unknown ").Op("+").Add(what), jen.Id(recvName), jen.Lit(""))),
		),
		jen.Op("*").Id(recvName).Op("=").Id("s"),
		jen.Return(jen.Nil()),
	)
}

// stringEnumDecoder decodes a closed string enum to its constants, which
// spares a copy of the text.
/*
	func (v *ToolKind) decodeJSON(d *decoder) error {
		text, err := d.stringText(v)
		if err != nil {
			return err
		}
		switch string(text) {
		case string(ToolKindRead):
			*v = ToolKindRead
		…
		default:
			return typeError("unknown string "+strconv.Quote(string(text)), v, "")
		}
		return nil
	}
*/
func stringEnumDecoder(f *jen.File, t *ir.Type) {
	var cases []jen.Code
	for _, v := range t.Enum.Values {
		cases = append(cases, jen.Case(jen.String().Call(jen.Id(v.GoName))).Block(jen.Op("*").Id(recvName).Op("=").Id(v.GoName)))
	}
	unknown := jen.Lit("unknown string ").Op("+").Qual("strconv", "Quote").Call(jen.String().Call(jen.Id("text")))
	cases = append(cases, jen.Default().Block(jen.Return(jen.Id("typeError").Call(unknown, jen.Id(recvName), jen.Lit("")))))
	f.Func().Params(receiver(t.GoName)).Id("decodeJSON").Params(decoderParam).Error().Block(
		jen.List(jen.Id("text"), jen.Err()).Op(":=").Id("d").Dot("stringText").Call(jen.Id(recvName)),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		jen.Switch(jen.String().Call(jen.Id("text"))).Block(cases...),
		jen.Return(jen.Nil()),
	)
}

// enumValueDoc documents an enum constant and its wire value.
func enumValueDoc(t *ir.Type, v *ir.EnumValue) string {
	wire := strconv.Quote(v.String)
	if t.Enum.Integer {
		wire = strconv.FormatInt(v.Int, 10)
	}
	if strings.TrimSpace(v.Doc) == "" {
		return fmt.Sprintf("%s is the %s value %s.", v.GoName, t.GoName, wire)
	}
	return names.Lead(v.GoName, v.Doc) + fmt.Sprintf("\n\nOn the wire it is %s.", wire)
}
