package emit

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/acpgen/acpgen/gen/ir"
)

// structsAndNamed emits object types, defined scalar types and free-form aliases.
func (e *emitter) structsAndNamed(f *jen.File) error {
	for _, t := range e.typesOf(ir.Struct, ir.Named, ir.Raw) {
		if err := e.typeDecl(f, t); err != nil {
			return err
		}
	}
	return nil
}

// typeDecl emits a Struct, Named or Raw type.
func (e *emitter) typeDecl(f *jen.File, t *ir.Type) error {
	f.Add(typeDoc(t))
	switch t.Kind {
	case ir.Struct:
		f.Type().Id(t.GoName).Struct(members(t)...)
		if keep := keepsEmpty(ownFields(t)); len(keep) > 0 {
			f.Line()
			f.Comment("MarshalJSON writes a list or map that is present but empty as such, not as an absent key.")
			f.Func().Params(jen.Id("v").Id(t.GoName)).Id("MarshalJSON").Params().
				Params(jen.Index().Byte(), jen.Error()).Block(
				jen.Type().Id("plain").Id(t.GoName),
				jen.Return(jen.Qual(jsonPkg, "Marshal").Call(fieldsValue(jen.Id("plain").Call(jen.Id("v")), "v", keep))),
			)
			f.Line()
		}
		spec, err := typeSpec(t, t.GoName)
		if err != nil {
			return err
		}
		spec.unmarshal = true
		objectDecoders(f, spec)
	case ir.Named:
		if r := t.Underlying; r.Kind == ir.RefNamed && (r.Type.Kind == ir.Struct || r.Type.Kind == ir.Union) {
			// Another name for a type with methods: an alias keeps them.
			f.Type().Id(t.GoName).Op("=").Id(r.Type.GoName)
		} else {
			f.Type().Id(t.GoName).Add(goType(*r))
		}
	case ir.Raw:
		f.Type().Id(t.GoName).Op("=").Qual(jsonPkg, "RawMessage")
	}
	f.Line()
	return nil
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

// members are the struct members of t: its own fields, then one embedded
// struct per set of unstable features that adds fields, which build tags
// fill in or leave empty.
func members(t *ir.Type) []jen.Code {
	out := structFields(ownFields(t))
	for _, key := range fieldKeys(t) {
		out = append(out, jen.Line(), jen.Comment(fmt.Sprintf("Fields of the unstable surface, with the %s build tag.", tagList(gateOf(key)))),
			jen.Id(extension(t, key)))
	}
	return out
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
		arg := jen.Id(recv).Dot(f.GoName)
		if f.NullMeans {
			members = append(members, jen.Id(f.GoName).Op("*").Add(fieldType(f)).Tag(jsonTag(f)))
			values = append(values, jen.Id("presentNullable").Call(arg))
			continue
		}
		u := underlying(f.Type)
		members = append(members, jen.Id(f.GoName).Op("*").Add(goType(u)).Tag(jsonTag(f)))
		helper := "present"
		if u.Kind == ir.RefMap {
			helper = "presentMap"
		}
		if f.Type.Kind == ir.RefNamed {
			arg = goType(u).Call(arg)
		}
		values = append(values, jen.Id(helper).Call(arg))
	}
	return jen.Struct(members...).Values(values...)
}
