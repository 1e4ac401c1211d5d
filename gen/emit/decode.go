package emit

import (
	"github.com/dave/jennifer/jen"

	"github.com/acpgen/acpgen/gen/ir"
)

// Decoders. Every object type gets a one-pass decoder on the decoding
// runtime (decode.go, and decode_objects.go, decode_scalars.go and
// decode_lists.go beside it): decodeMember decodes one member it knows,
// missing reports the required members an object lacked, decodeRest reads
// an object's members after its '{', decodeJSON reads a whole value, and
// UnmarshalJSON is decodeJSON for encoding/json. Required members are bits
// of a uint64, in the order of the type's fields, unstable ones included.
//
// Member rules: the standard library decodes a struct without noticing a
// missing member and knows nothing of the schema's x-deserialize-*
// keywords; the reference implementation does both, and so do these
// decoders, one rule set per member.

// recvName is the receiver name of generated decoders and encoders.
const recvName = "v"

// objectSpec describes the decoders of one Go struct.
type objectSpec struct {
	goName string
	fields []*ir.Field // the fields its own decodeMember knows
	bits   map[*ir.Field]int
	exts   []extRef // embedded extension structs, tried for other names
	// unmarshal adds UnmarshalJSON; decodeJSON and decodeRest are added
	// unless memberOnly.
	unmarshal  bool
	memberOnly bool
	// after are statements that end decodeRest once the members are read,
	// before the required members are checked.
	after []jen.Code
	// seeded adds decodeMembers, which decodeRest calls, for a caller that
	// has read some members already (a union, the tag of its fallback).
	seeded bool
	// extra keeps the members no field knows in the Extra map; keep keeps
	// them in the unexported field unknownMembers, and closed rejects them.
	extra, keep, closed bool
}

// extRef is an embedded extension struct and whether it has required members.
type extRef struct {
	name     string
	required bool
}

// typeSpec describes the decoders of a struct type, or of the shared
// fields of a union, under the Go name goName.
func typeSpec(t *ir.Type, goName string) objectSpec {
	s := objectSpec{goName: goName, fields: ownFields(t), bits: requiredBits(t.Fields), extra: t.Extra}
	for _, key := range t.ExtensionKeys() {
		s.exts = append(s.exts, extRef{name: t.Extensions[key], required: hasRequired(keyFields(t, key))})
	}
	return s
}

// keyFields are the fields of t that the features of key add.
func keyFields(t *ir.Type, key string) []*ir.Field {
	var out []*ir.Field
	for _, f := range t.Fields {
		if f.Unstable && f.Key() == key {
			out = append(out, f)
		}
	}
	return out
}

// requiredBits numbers the required fields of fields; check.Package
// allows at most 64 of them.
func requiredBits(fields []*ir.Field) map[*ir.Field]int {
	bits := map[*ir.Field]int{}
	for _, f := range fields {
		if f.Required {
			bits[f] = len(bits)
		}
	}
	return bits
}

// hasRequired reports whether some field of fields is required.
func hasRequired(fields []*ir.Field) bool {
	for _, f := range fields {
		if f.Required {
			return true
		}
	}
	return false
}

func seenBit(bit int) jen.Code {
	return jen.Parens(jen.Lit(1).Op("<<").Lit(bit))
}

func receiver(goName string) *jen.Statement {
	return jen.Id(recvName).Op("*").Id(goName)
}

var (
	decoderParam = jen.Id("d").Op("*").Id("decoder")
	memberParams = []jen.Code{jen.Id("d").Op("*").Id("decoder"), jen.Id("name").Index().Byte(), jen.Id("seen").Op("*").Uint64()}
	memberResult = []jen.Code{jen.Bool(), jen.Error()}
)

// objectDecoders emits the decoders of one struct.
func objectDecoders(f *jen.File, s objectSpec) {
	memberDecoder(f, s.goName, s.fields, s.bits, s.exts)
	var requiredExts []string
	for _, x := range s.exts {
		if x.required {
			requiredExts = append(requiredExts, x.name)
		}
	}
	hasMissing := hasRequired(s.fields) || len(requiredExts) > 0
	if hasMissing {
		missingDecoder(f, s.goName, s.fields, s.bits, requiredExts)
	}
	if s.memberOnly {
		return
	}
	/*
		func (v *ToolCall) decodeRest(d *decoder, start int64) error {
			var seen uint64
			if err := d.members(func(name []byte) (bool, error) { return v.decodeMember(d, name, &seen) }); err != nil {
				return err
			}
			return v.missing(seen)
		}
	*/
	member := jen.Id(recvName).Dot("decodeMember").Call(jen.Id("d"), jen.Id("name"), jen.Op("&").Id("seen"))
	callback := []jen.Code{jen.Return(member)}
	orElse := func(other jen.Code) []jen.Code {
		return []jen.Code{
			jen.If(jen.List(jen.Id("ok"), jen.Err()).Op(":=").Add(member), jen.Id("ok").Op("||").Err().Op("!=").Nil()).Block(jen.Return(jen.Id("ok"), jen.Err())),
			other,
		}
	}
	switch {
	case s.extra:
		// A member no field knows goes to Extra.
		callback = orElse(jen.Return(jen.True(), jen.Id("decodeExtra").Call(jen.Id("d"), jen.Id("name"), jen.Op("&").Id(recvName).Dot("Extra"))))
	case s.closed:
		callback = orElse(jen.Return(jen.False(), jen.Id("notAllowed").Call(jen.Id(recvName))))
	}
	members := jen.Id("d").Dot("members").Call(jen.Func().Params(jen.Id("name").Index().Byte()).Params(memberResult...).Block(callback...))
	if s.keep {
		// membersKeeping keeps what decodeMember does not know.
		members = jen.Id("d").Dot("membersKeeping").Call(jen.Func().Params(jen.Id("name").Index().Byte()).Params(memberResult...).Block(callback...),
			jen.Op("&").Id(recvName).Dot(unknownField), jen.Id("outer"))
	}
	var body []jen.Code
	if !s.seeded {
		body = append(body, jen.Var().Id("seen").Uint64())
	}
	switch {
	case len(s.after) == 0 && !hasMissing:
		body = append(body, jen.Return(members))
	default:
		body = append(body, jen.If(jen.Err().Op(":=").Add(members), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())))
		body = append(body, s.after...)
		if hasMissing {
			body = append(body, jen.Return(jen.Id(recvName).Dot("missing").Call(jen.Id("seen"))))
		} else {
			body = append(body, jen.Return(jen.Nil()))
		}
	}
	if s.seeded {
		f.Comment("decodeMembers decodes the members after '{', or after the tag, whose bit seen has then.")
		f.Func().Params(receiver(s.goName)).Id("decodeMembers").Params(decoderParam, jen.Id("start").Int64(), jen.Id("seen").Uint64()).Error().Block(body...)
		f.Line()
		body = []jen.Code{jen.Return(jen.Id(recvName).Dot("decodeMembers").Call(jen.Id("d"), jen.Id("start"), jen.Lit(0)))}
	}
	if s.keep {
		f.Comment("decodeRestKeeping is decodeRest, leaving out the members that outer names.")
		f.Func().Params(receiver(s.goName)).Id("decodeRestKeeping").Params(decoderParam, jen.Id("start").Int64(), jen.Id("outer").Index().String()).Error().Block(body...)
		f.Line()
		body = []jen.Code{jen.Return(jen.Id(recvName).Dot("decodeRestKeeping").Call(jen.Id("d"), jen.Id("start"), jen.Nil()))}
	}
	f.Func().Params(receiver(s.goName)).Id("decodeRest").Params(decoderParam, jen.Id("start").Int64()).Error().Block(body...)
	f.Line()
	decodeJSONMethod(f, s.goName, jen.Id("d").Dot("object").Call(jen.Id(recvName)))
	if s.unmarshal {
		unmarshalMethod(f, s.goName)
	}
}

// decodeJSONMethod emits decodeJSON with the given result.
func decodeJSONMethod(f *jen.File, goName string, result jen.Code) {
	f.Func().Params(receiver(goName)).Id("decodeJSON").Params(decoderParam).Error().Block(jen.Return(result))
	f.Line()
}

// unmarshalMethod emits UnmarshalJSON on top of decodeJSON.
func unmarshalMethod(f *jen.File, goName string) {
	f.Comment("UnmarshalJSON decodes the value by the schema's rules: required members, and the")
	f.Comment("x-deserialize-* keywords (defaults on error or null, invalid array items dropped).")
	f.Func().Params(receiver(goName)).Id("UnmarshalJSON").Params(jen.Id("data").Index().Byte()).Error().Block(
		jen.Return(jen.Id("decodeBytes").Call(jen.Id("data"), jen.Id(recvName))))
	f.Line()
}

// memberDecoder emits decodeMember: a switch over the names of fields,
// then the extension structs in turn.
/*
	func (v *ToolCall) decodeMember(d *decoder, name []byte, seen *uint64) (bool, error) {
		switch string(name) {
		case "toolCallId":
			*seen |= 1
			return true, decodeField(d, &v.ToolCallID, decodeString[ToolCallID], 0)
		…
		}
		return false, nil
	}
*/
func memberDecoder(f *jen.File, goName string, fields []*ir.Field, bits map[*ir.Field]int, exts []extRef) {
	var body []jen.Code
	if len(fields) > 0 {
		var cases []jen.Code
		for _, fl := range fields {
			var block []jen.Code
			if bit, ok := bits[fl]; ok {
				block = append(block, jen.Op("*").Id("seen").Op("|=").Lit(1).Op("<<").Lit(bit))
			}
			block = append(block, jen.Return(jen.True(), fieldDecode(fl)))
			cases = append(cases, jen.Case(jen.Lit(fl.JSONName)).Block(block...))
		}
		body = append(body, jen.Switch(jen.String().Call(jen.Id("name"))).Block(cases...))
	}
	for i, x := range exts {
		call := jen.Id(recvName).Dot(x.name).Dot("decodeMember").Call(jen.Id("d"), jen.Id("name"), jen.Id("seen"))
		if i == len(exts)-1 {
			body = append(body, jen.Return(call))
			break
		}
		body = append(body, jen.If(jen.List(jen.Id("ok"), jen.Err()).Op(":=").Add(call), jen.Id("ok").Op("||").Err().Op("!=").Nil()).Block(
			jen.Return(jen.Id("ok"), jen.Err())))
	}
	if len(exts) == 0 {
		body = append(body, jen.Return(jen.False(), jen.Nil()))
	}
	recv := receiver(goName)
	if len(fields) == 0 && len(exts) == 0 {
		recv = jen.Op("*").Id(goName)
	}
	f.Func().Params(recv).Id("decodeMember").Params(memberParams...).Params(memberResult...).Block(body...)
	f.Line()
}

// missingDecoder emits missing, which reports the first required field of
// fields whose bit seen lacks, then asks the extension structs exts.
func missingDecoder(f *jen.File, goName string, fields []*ir.Field, bits map[*ir.Field]int, exts []string) {
	var body []jen.Code
	for _, fl := range fields {
		bit, ok := bits[fl]
		if !ok {
			continue
		}
		body = append(body, jen.If(jen.Id("seen").Op("&").Add(seenBit(bit)).Op("==").Lit(0)).Block(
			jen.Return(jen.Id("missing").Call(jen.Lit(fl.JSONName), jen.Id(recvName)))))
	}
	for i, x := range exts {
		call := jen.Id(recvName).Dot(x).Dot("missing").Call(jen.Id("seen"))
		if i == len(exts)-1 {
			body = append(body, jen.Return(call))
			break
		}
		body = append(body, jen.If(jen.Err().Op(":=").Add(call), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())))
	}
	if len(exts) == 0 {
		body = append(body, jen.Return(jen.Nil()))
	}
	f.Func().Params(receiver(goName)).Id("missing").Params(jen.Id("seen").Uint64()).Error().Block(body...)
	f.Line()
}

// fieldDecode is the call that decodes the member of field fl.
func fieldDecode(fl *ir.Field) jen.Code {
	ptr := jen.Op("&").Id(recvName).Dot(fl.GoName)
	rules := fieldRules(fl)
	switch {
	case plainMember(fl):
		// decodeField would only add its own check for null.
		if fl.Type.Kind == ir.RefNamed && hasDecoder(fl.Type.Type) {
			return jen.Id(recvName).Dot(fl.GoName).Dot("decodeJSON").Call(jen.Id("d"))
		}
		// decodeString(&v.SessionID, d): the type argument is inferred.
		return plainScalar(fl.Type).Call(ptr, jen.Id("d"))
	case skipElem(fl) != nil && fl.Type.Check == nil:
		return jen.Id("decodeItemsField").Call(jen.Id("d"), ptr, elemDecoder(*skipElem(fl)), rules)
	case skipElem(fl) != nil:
		return jen.Id("decodeField").Call(jen.Id("d"), ptr, itemsDecoder(fl.Type), rules)
	case fl.NullMeans:
		elem := elemDecoder(fl.Type)
		if fl.SkipInvalidItems && fl.Type.Kind == ir.RefArray {
			elem = itemsDecoder(fl.Type)
		}
		return jen.Id("decodeNullableField").Call(jen.Id("d"), ptr, elem, rules)
	case pointer(fl):
		return jen.Id("decodePointerField").Call(jen.Id("d"), ptr, elemDecoder(fl.Type), rules)
	}
	return jen.Id("decodeField").Call(jen.Id("d"), ptr, elemDecoder(fl.Type), rules)
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
	names := ruleNames(fl)
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

// acceptsNull reports whether r is a union with an alternative for null
// (v1 RequestId), which decodes null itself.
func acceptsNull(r ir.Ref) bool {
	u := underlying(r)
	if u.Kind != ir.RefNamed || u.Type.Kind != ir.Union {
		return false
	}
	for _, v := range u.Type.Union.Variants {
		if v.JSON == ir.KindNull {
			return true
		}
	}
	return false
}

// isRaw reports whether r is free-form JSON.
func isRaw(r ir.Ref) bool {
	u := underlying(r)
	return u.Kind == ir.RefRaw || (u.Kind == ir.RefNamed && u.Type.Kind == ir.Raw)
}

// hasDecoder reports whether values of t have a decodeJSON method.
func hasDecoder(t *ir.Type) bool {
	switch t.Kind {
	case ir.Struct, ir.Union:
		return true
	case ir.Enum:
		return !t.Enum.Open
	case ir.Named:
		u := t.Underlying
		return u.Kind == ir.RefNamed && (u.Type.Kind == ir.Struct || u.Type.Kind == ir.Union)
	}
	return false
}

// hasCheck reports whether values of r are checked beyond their Go type:
// r's own Check, or that of the defined type r names.
func hasCheck(r ir.Ref) bool {
	return r.Check != nil || (r.Kind == ir.RefNamed && r.Type.Kind == ir.Named && r.Type.Underlying.Check != nil)
}

// elemDecoder is a function value of type func(*T, *decoder) error that
// decodes one value of r and checks it.
func elemDecoder(r ir.Ref) jen.Code {
	if r.Kind == ir.RefArray || r.Kind == ir.RefMap {
		return checkedFunc(r.Check, goType(r), elemCall(r, jen.Id("p")))
	}
	return checked(r.Check, goType(r), typeDecoder(r))
}

// typeDecoder is elemDecoder without r's own Check; the Check of a defined
// type over a scalar, list or map is made by its decoder.
func typeDecoder(r ir.Ref) jen.Code {
	goT := goType(r)
	switch r.Kind {
	case ir.RefNamed:
		t := r.Type
		switch {
		case hasDecoder(t) && t.Kind == ir.Named:
			return checked(t.Underlying.Check, goT, jen.Parens(jen.Op("*").Add(goT)).Dot("decodeJSON"))
		case hasDecoder(t):
			return jen.Parens(jen.Op("*").Add(goT)).Dot("decodeJSON")
		case t.Kind == ir.Raw:
			return jen.Id("decodeRaw").Index(goT)
		case t.Kind == ir.Enum && t.Enum.Integer:
			return jen.Id("decodeInt").Index(goT)
		case t.Kind == ir.Enum:
			return jen.Id("decodeString").Index(goT)
		}
		u := *t.Underlying
		switch u.Kind {
		case ir.RefString, ir.RefBool, ir.RefInt, ir.RefFloat:
			return checked(u.Check, goT, scalarDecoder(u).Index(goT))
		case ir.RefRaw:
			return checked(u.Check, goT, jen.Id(rawDecoder(u)).Index(goT))
		}
		// A defined type over a list, a map or another defined type.
		u.Check = nil
		return checkedFunc(t.Underlying.Check, goT, elemCall(u, jen.Parens(jen.Op("*").Add(goType(u))).Call(jen.Id("p"))))
	case ir.RefString, ir.RefBool, ir.RefInt, ir.RefFloat:
		return scalarDecoder(r).Index(goT)
	case ir.RefArray, ir.RefMap:
		return elemFunc(goT, elemCall(r, jen.Id("p")))
	}
	return jen.Id(rawDecoder(r)).Index(goT)
}

// nestedDecoder is elemDecoder for the values of a list or map: a list or
// map there is decoded by the runtime's sliceDecoder or mapDecoder, so that
// the code for lists nested n deep grows with n, not n².
func nestedDecoder(r ir.Ref) jen.Code {
	switch r.Kind {
	case ir.RefArray:
		return jen.Id("sliceDecoder").Call(nestedDecoder(*r.Elem))
	case ir.RefMap:
		return jen.Id("mapDecoder").Call(nestedDecoder(*r.Elem))
	}
	return elemDecoder(r)
}

// elemCall decodes a value of r, a list, a map or a named type, into ptr.
func elemCall(r ir.Ref, ptr jen.Code) jen.Code {
	switch r.Kind {
	case ir.RefArray:
		return jen.Id("decodeSlice").Call(jen.Id("d"), ptr, nestedDecoder(*r.Elem))
	case ir.RefMap:
		return jen.Id("decodeMap").Call(jen.Id("d"), ptr, nestedDecoder(*r.Elem))
	}
	return jen.Add(elemDecoder(r)).Call(ptr, jen.Id("d"))
}

// elemFunc is `func(p *T, d *decoder) error { return call }`.
func elemFunc(goT, call jen.Code) jen.Code {
	return jen.Func().Params(jen.Id("p").Op("*").Add(goT), decoderParam).Error().Block(jen.Return(call))
}

func scalarDecoder(r ir.Ref) *jen.Statement {
	switch r.Kind {
	case ir.RefString:
		return jen.Id("decodeString")
	case ir.RefBool:
		return jen.Id("decodeBool")
	case ir.RefFloat:
		return jen.Id("decodeFloat")
	}
	if r.Unsigned {
		return jen.Id("decodeUint")
	}
	return jen.Id("decodeInt")
}

func rawDecoder(r ir.Ref) string {
	if r.Object {
		return "decodeRawObject"
	}
	return "decodeRaw"
}

// hasRule reports whether a member has a decoding rule of its own.
func hasRule(f *ir.Field) bool {
	return f.Required || f.DefaultOnError || f.DefaultOnNull || f.SkipInvalidItems || objectOnly(f)
}

// objectOnly reports whether f is free-form JSON that must be an object.
func objectOnly(f *ir.Field) bool {
	return f.Type.Kind == ir.RefRaw && f.Type.Object
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
