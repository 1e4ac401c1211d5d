package emit

import (
	"github.com/dave/jennifer/jen"

	"github.com/acpgen/acpgen/gen/ir"
)

// structsAndNamed emits object types, defined scalar types and free-form aliases.
func (e *emitter) structsAndNamed(f *jen.File) error {
	for _, t := range e.typesOf(ir.Struct, ir.Named, ir.Raw) {
		f.Add(typeDoc(t))
		switch t.Kind {
		case ir.Struct:
			f.Type().Id(t.GoName).Struct(structFields(t.Fields)...)
			if keep := keepsEmpty(t.Fields); len(keep) > 0 {
				f.Line()
				f.Comment("MarshalJSON writes a list or map that is present but empty as such, not as an absent key.")
				f.Func().Params(jen.Id("v").Id(t.GoName)).Id("MarshalJSON").Params().
					Params(jen.Index().Byte(), jen.Error()).Block(
					jen.Type().Id("plain").Id(t.GoName),
					jen.Return(jen.Qual(jsonPkg, "Marshal").Call(fieldsValue(jen.Id("plain").Call(jen.Id("v")), "v", keep))),
				)
			}
		case ir.Named:
			f.Type().Id(t.GoName).Add(goType(*t.Underlying))
		case ir.Raw:
			f.Type().Id(t.GoName).Op("=").Qual(jsonPkg, "RawMessage")
		}
		f.Line()
	}
	return nil
}

// fieldsValue returns the value to encode for the fields of recv: plain
// itself, or plain with the fields in keep shadowed by pointers that are nil
// only when the field is absent.
/*
	struct {
		plain
		Env *[]EnvVariable `json:"env,omitempty"`
	}{plain(v), present(v.Env)}
*/
func fieldsValue(plain *jen.Statement, recv string, keep []*ir.Field) jen.Code {
	if len(keep) == 0 {
		return plain
	}
	members := []jen.Code{jen.Id("plain")}
	values := []jen.Code{plain}
	for _, f := range keep {
		u := underlying(f.Type)
		members = append(members, jen.Id(f.GoName).Op("*").Add(goType(u)).Tag(jsonTag(f)))
		helper := "present"
		if u.Kind == ir.RefMap {
			helper = "presentMap"
		}
		arg := jen.Id(recv).Dot(f.GoName)
		if f.Type.Kind == ir.RefNamed {
			arg = goType(u).Call(arg)
		}
		values = append(values, jen.Id(helper).Call(arg))
	}
	return jen.Struct(members...).Values(values...)
}
