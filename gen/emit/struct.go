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

// keepsUnknown reports whether struct t keeps in unknownField the members
// its schema allows without naming them, as check decided.
func keepsUnknown(t *ir.Type) bool {
	return t.Kind == ir.Struct && t.KeepsUnknown
}

// extensionStruct emits the struct that holds the fields x adds to a stable
// struct with the tags of gate key, which the struct embeds, and its codec.
func extensionStruct(out pair, x ir.Extension, key string) {
	t, ext := x.Type, x.Type.Extensions[key]
	out.api.Comment(fmt.Sprintf("%s holds the fields of %s that the %s build tag adds.", ext, t.GoName, tagList(gateOf(key))))
	out.api.Type().Id(ext).Struct(structFields(x.Fields)...)
	out.api.Line()
	objectDecoders(out.codec, objectSpec{goName: ext, fields: x.Fields, bits: requiredBits(t.Fields), memberOnly: true})
	objectEncoders(out.codec, encodeSpec{goName: ext, fields: x.Fields, membersOnly: true})
	otherSharedMethod(out, x, key, true)
}

// otherSharedMethod gives the extension struct of a stable union whose
// unknown variant is decoded for the shared fields the struct holds
// (ir.UnionInfo.OtherSharedGated) the method that names them: them when on
// is set, none in the builds without the tags.
func otherSharedMethod(out pair, x ir.Extension, key string, on bool) {
	t := x.Type
	if t.Kind != ir.Union || len(t.Union.OtherSharedGated[key]) == 0 {
		return
	}
	ext := t.Extensions[key]
	result := jen.Return(jen.Nil())
	if on {
		result = jen.Return(jen.Index().String().Values(lits(t.Union.OtherSharedGated[key])...))
	}
	out.codec.Comment("otherShared names the fields every variant shares that the struct holds, which an")
	out.codec.Comment("unknown variant is decoded for.")
	out.codec.Func().Params(jen.Op("*").Id(ext)).Id("otherShared").Params().Index().String().Block(result)
	out.codec.Line()
}

// extensionOff declares the struct of extensionStruct empty, for builds
// without the tags of gate key, with a codec that knows no member.
func extensionOff(out pair, x ir.Extension, key string) {
	ext := x.Type.Extensions[key]
	out.api.Comment(fmt.Sprintf("%s is empty without the %s build tag.", ext, tagList(gateOf(key))))
	out.api.Type().Id(ext).Struct()
	out.api.Line()
	memberDecoder(out.codec, ext, nil, nil, nil)
	objectEncoders(out.codec, encodeSpec{goName: ext, membersOnly: true})
	if hasRequired(x.Fields) {
		out.codec.Func().Params(jen.Op("*").Id(ext)).Id("missing").Params(jen.Uint64()).Error().Block(jen.Return(jen.Nil()))
		out.codec.Line()
	}
	otherSharedMethod(out, x, key, false)
}
