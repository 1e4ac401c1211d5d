package emit

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/acpgen/acpgen/gen/ir"
	"github.com/acpgen/acpgen/gen/names"
)

// Structs: an object type's declaration, its members (the fields, the
// embedded extension structs of unstable features, the members the schema
// allows without naming them) and its codec.

// structsAndNamed emits object types, defined scalar types and free-form
// aliases: the types.go and types_json.go pair.
func (e *emitter) structsAndNamed(out pair) {
	for _, t := range e.typesOf(ir.Struct, ir.Named, ir.Raw) {
		e.typeDecl(out, t)
	}
}

// typeDecl emits a Struct, Named or Raw type.
func (e *emitter) typeDecl(out pair, t *ir.Type) {
	switch t.Kind {
	case ir.Struct:
		structType(out, t)
	case ir.Named:
		namedType(out, t)
	case ir.Raw:
		rawType(out.api, t)
	}
}

// structType emits struct t: its declaration, then its codec.
func structType(out pair, t *ir.Type) {
	out.api.Add(typeDoc(t))
	out.api.Type().Id(t.GoName).Struct(members(t)...)
	out.api.Line()
	enc := structEncodeSpec(t, t.GoName)
	enc.keep = keepsUnknown(t)
	objectEncoders(out.codec, enc)
	spec := typeSpec(t, t.GoName)
	spec.unmarshal = true
	spec.keep, spec.closed = keepsUnknown(t), t.Closed
	objectDecoders(out.codec, spec)
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
	for _, key := range t.ExtensionKeys() {
		out = append(out, jen.Line(), jen.Comment(fmt.Sprintf("Fields of the unstable surface, with the %s build tag.", tagList(gateOf(key)))),
			jen.Id(t.Extensions[key]))
	}
	if t.Defaulted {
		out = append(out, jen.Line(),
			jen.Comment("defaulted marks the value a constructor fills in for the schema's default: it is"),
			jen.Comment("left out on the wire while it is empty."),
			jen.Id(names.DefaultedMark).Bool())
	}
	if keepsUnknown(t) {
		out = append(out, jen.Line(),
			jen.Comment("unknownMembers holds the members the schema allows without naming them, as"),
			jen.Comment("received, each after a comma; they are written after the named members."),
			jen.Id(unknownField).String())
	}
	if t.Extra {
		out = append(out, jen.Line(),
			jen.Comment("Extra holds the members the schema does not name, which it allows, as received."),
			jen.Comment("They are written after the named members; a key must not repeat one of those."),
			jen.Id("Extra").Map(jen.String()).Qual(jsonPkg, "RawMessage").Tag(map[string]string{"json": "-"}))
	}
	return out
}

// unknownField is the unexported field of a struct that keeps the members
// its schema allows without naming them (keepsUnknown): a string, so that
// the struct stays comparable.
const unknownField = "unknownMembers"

// keepsUnknown reports whether struct t keeps in unknownField the members
// its schema allows without naming them, as check decided.
func keepsUnknown(t *ir.Type) bool {
	return t.Kind == ir.Struct && t.KeepsUnknown
}
