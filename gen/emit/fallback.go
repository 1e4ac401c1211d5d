package emit

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/acpgen/acpgen/gen/ir"
)

// fallback emits the Other variant of a tagged union: the tag, the fields
// every variant must carry, and the raw object.
/*
	type SessionUpdateOther struct {
		Tag string
		Raw json.RawMessage
	}
*/
func (e *emitter) fallback(f *jen.File, t *ir.Type) {
	u := t.Union
	v := u.Fallback
	f.Add(comment(v.GoName, fmt.Sprintf("a variant of %s whose %q this package does not know: a custom one\n"+
		"(beginning with \"_\") or one from a newer protocol version. Raw keeps the object exactly as received.\n\n%s", t.GoName, u.Tag, v.Doc)))
	members := []jen.Code{
		jen.Comment(fmt.Sprintf("Tag is the %q value.", u.Tag)),
		jen.Id("Tag").String(),
	}
	for _, fl := range v.Fields {
		members = append(members, jen.Line(), comment("", fl.Doc), jen.Id(fl.GoName).Add(fieldType(fl)))
	}
	members = append(members, jen.Line(),
		jen.Comment("Raw is the whole JSON object as received. MarshalJSON writes it back unchanged;"),
		jen.Comment("set it to nil to write Tag and the fields above instead."),
		jen.Id("Raw").Qual(jsonPkg, "RawMessage"),
	)
	f.Type().Id(v.GoName).Struct(members...)
	f.Line()
	f.Func().Params(jen.Id("v").Op("*").Id(v.GoName)).Id(marker(t)).Params().String().Block(
		jen.If(jen.Id("v").Op("==").Nil()).Block(jen.Return(jen.Lit(""))),
		jen.Return(jen.Id("v").Dot("Tag")))
	f.Line()
	e.fallbackRaw(f, t)
	f.Comment("IsCustom reports whether the tag is implementation-specific: it begins with \"_\".")
	f.Func().Params(jen.Id("v").Op("*").Id(v.GoName)).Id("IsCustom").Params().Bool().Block(
		jen.Return(jen.Qual("strings", "HasPrefix").Call(jen.Id("v").Dot("Tag"), jen.Lit("_"))),
	)
	f.Line()

	// The wire form of the known members: tag first, then the fields.
	wire := []jen.Code{jen.Id("Tag").String().Tag(map[string]string{"json": u.Tag})}
	wireVals := []jen.Code{jen.Id("v").Dot("Tag")}
	probe := []jen.Code{jen.Id("Tag").Op("*").String().Tag(map[string]string{"json": u.Tag})}
	for _, fl := range v.Fields {
		wire = append(wire, jen.Id(fl.GoName).Add(fieldType(fl)).Tag(jsonTag(fl)))
		wireVals = append(wireVals, jen.Id("v").Dot(fl.GoName))
		probe = append(probe, jen.Id(fl.GoName).Op("*").Add(fieldType(fl)).Tag(map[string]string{"json": fl.JSONName}))
	}
	f.Comment("MarshalJSON writes Raw if set, and otherwise Tag and the fields.")
	f.Func().Params(jen.Id("v").Id(v.GoName)).Id("MarshalJSON").Params().Params(jen.Index().Byte(), jen.Error()).Block(
		jen.If(jen.Id("v").Dot("Raw").Op("!=").Nil()).Block(jen.Return(jen.Id("v").Dot("Raw"), jen.Nil())),
		jen.Return(jen.Qual(jsonPkg, "Marshal").Call(jen.Struct(wire...).Values(wireVals...))),
	)
	f.Line()

	body := []jen.Code{
		rejectNonObject("v"),
		jen.Var().Id("probe").Struct(probe...),
		jen.If(jen.Err().Op(":=").Qual(jsonPkg, "Unmarshal").Call(jen.Id("data"), jen.Op("&").Id("probe")), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
	}
	check := func(field, key string) jen.Code {
		return jen.If(jen.Id("probe").Dot(field).Op("==").Nil()).Block(
			jen.Return(jen.Id("typeError").Call(jen.Lit(fmt.Sprintf("object without %q", key)), jen.Id("v"), jen.Lit(key))))
	}
	body = append(body, check("Tag", u.Tag))
	assign := []jen.Code{jen.Id("v").Dot("Tag").Op("=").Op("*").Id("probe").Dot("Tag")}
	for _, fl := range v.Fields {
		if fl.Required {
			body = append(body, check(fl.GoName, fl.JSONName))
		}
		if fl.Required {
			assign = append(assign, jen.Id("v").Dot(fl.GoName).Op("=").Op("*").Id("probe").Dot(fl.GoName))
		} else {
			assign = append(assign, jen.If(jen.Id("probe").Dot(fl.GoName).Op("!=").Nil()).Block(
				jen.Id("v").Dot(fl.GoName).Op("=").Op("*").Id("probe").Dot(fl.GoName)))
		}
	}
	body = append(body, assign...)
	body = append(body,
		jen.Id("v").Dot("Raw").Op("=").Append(jen.Qual(jsonPkg, "RawMessage").Call(jen.Nil()), jen.Id("data").Op("...")),
		jen.Return(jen.Nil()),
	)
	f.Comment("UnmarshalJSON keeps the object in Raw and decodes the tag and the fields every variant has.")
	f.Func().Params(jen.Id("v").Op("*").Id(v.GoName)).Id("UnmarshalJSON").Params(jen.Id("data").Index().Byte()).Error().Block(body...)
	f.Line()
}
