package emit

import (
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/acpgen/acpgen/gen/ir"
)

// The codec every object type shares: structs, union variants, a union's
// shared fields and the extension structs of unstable features.
//
// Decoders. Every object type gets a one-pass decoder on the decoding
// runtime (decode.go, and decode_objects.go, decode_fields.go,
// decode_scalars.go and decode_lists.go beside it): decodeMember decodes one
// member it knows, missing reports the required members an object lacked,
// decodeRest reads an object's members after its '{', and UnmarshalJSON
// reads a whole value for encoding/json. An object type has no decodeJSON: the runtime reads
// its '{' and calls decodeRest (d.object, and decodeObject[*T] where a
// function value is needed). Required members are bits of a uint64, in the
// order of the type's fields, unstable ones included.
// A struct that keeps the members it does not know and needs nothing more
// has neither missing nor a loop of its own: its decodeRest calls the
// runtime's structRest with the number and the names of its required members.
//
// Encoders. Every object type gets appendMembers, which appends its
// members each after a comma; closeObject makes them an object (encode.go):
// the appendMembers of the enclosing struct calls both for a member, the
// runtime's encodeObject for the items of a list or a map, and MarshalJSON
// is appendMembers into a pooled buffer, closed by encodedObject. Only a
// variant that may hold an unknown one kept raw has an appendJSON of its
// own, which writes that first.

// recvName is the receiver name of generated decoders and encoders.
const recvName = "v"

func receiver(goName string) *jen.Statement {
	return jen.Id(recvName).Op("*").Id(goName)
}

var (
	decoderParam = jen.Id("d").Op("*").Id("decoder")
	memberParams = []jen.Code{jen.Id("d").Op("*").Id("decoder"), jen.Id("name").Index().Byte(), jen.Id("seen").Op("*").Uint64()}
	memberResult = []jen.Code{jen.Bool(), jen.Error()}
)

// unknownField is the unexported field of a struct that keeps the members
// its schema allows without naming them (keepsUnknown): a string, so that
// the struct stays comparable.
const unknownField = "unknownMembers"

// objectSpec describes the decoders of one Go struct.
type objectSpec struct {
	goName string
	fields []*ir.Field // the fields its own decodeMember knows
	bits   map[*ir.Field]int
	exts   []extRef // embedded extension structs, tried for other names
	// unmarshal adds UnmarshalJSON; decodeRest is added unless memberOnly.
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
	required, shared := sharedRest(s, requiredExts)
	if hasMissing && !shared {
		missingDecoder(f, s.goName, s.fields, s.bits, requiredExts)
	}
	if s.memberOnly {
		return
	}
	if shared {
		sharedRestDecoders(f, s, required)
	} else {
		restDecoders(f, s, hasMissing)
	}
	if s.unmarshal {
		unmarshalMethod(f, s.goName)
	}
}

// restParams are the parameters of decodeRest: the decoder, the offset of
// the object's '{', and the names of the members that the union the object
// is a variant of decodes, which only a type that keeps the members it
// does not know (keep) needs to leave out.
func restParams(keep bool) []jen.Code {
	outer := jen.Id("_")
	if keep {
		outer = jen.Id("outer")
	}
	return []jen.Code{jen.Id("d").Op("*").Id("decoder"), jen.Id("start").Int64(), outer.Index().String()}
}

// restDecoders emits decodeRest, which reads the members after '{' and
// checks that the required ones came (hasMissing), through decodeMembers
// when the spec is seeded.
/*
	func (v *ToolCall) decodeRest(d *decoder, start int64, _ []string) error {
		var seen uint64
		if err := d.members(func(name []byte) (bool, error) { return v.decodeMember(d, name, &seen) }); err != nil {
			return err
		}
		return v.missing(seen)
	}
*/
func restDecoders(f *jen.File, s objectSpec, hasMissing bool) {
	members := membersCall(s)
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
		f.Comment("decodeRest leaves out the members that outer names.")
	}
	f.Func().Params(receiver(s.goName)).Id("decodeRest").Params(restParams(s.keep)...).Error().Block(body...)
	f.Line()
}

// sharedRest reports whether the struct of s decodes its members through
// the runtime's structRest, shared by every struct that keeps the members it
// does not know and needs nothing else (no seeding, no statements after
// the members, no extension struct with required members) and whose
// required members have names without a space, which separates them for
// structRest; required are then those names, in the order of their bits.
func sharedRest(s objectSpec, requiredExts []string) (required []string, ok bool) {
	if !s.keep || s.extra || s.closed || s.seeded || len(s.after) > 0 || len(requiredExts) > 0 {
		return nil, false
	}
	required = make([]string, len(s.bits))
	for _, fl := range s.fields {
		if bit, ok := s.bits[fl]; ok {
			required[bit] = fl.JSONName
		}
	}
	for _, name := range required {
		if name == "" || strings.Contains(name, " ") {
			return nil, false
		}
	}
	return required, true
}

// sharedRestDecoders emits decodeRest as a call of structRest, with the
// number of the required members and their names in one string.
/*
	func (v *ToolCall) decodeRest(d *decoder, start int64, outer []string) error {
		return d.structRest(v, &v.unknownMembers, outer, 2, "toolCallId title")
	}
*/
func sharedRestDecoders(f *jen.File, s objectSpec, required []string) {
	args := []jen.Code{jen.Id(recvName), jen.Op("&").Id(recvName).Dot(unknownField), jen.Id("outer"),
		jen.Lit(len(required)), jen.Lit(strings.Join(required, " "))}
	f.Comment("decodeRest leaves out the members that outer names.")
	f.Func().Params(receiver(s.goName)).Id("decodeRest").Params(restParams(true)...).Error().Block(
		jen.Return(jen.Id("d").Dot("structRest").Call(args...)))
	f.Line()
}

// membersCall is the runtime's call that reads the members of an object,
// each through decodeMember; a member it does not know goes to Extra, is
// kept in unknownMembers, or is rejected, as the spec says.
func membersCall(s objectSpec) jen.Code {
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
	fn := jen.Func().Params(jen.Id("name").Index().Byte()).Params(memberResult...).Block(callback...)
	if s.keep {
		// membersKeeping keeps what decodeMember does not know.
		return jen.Id("d").Dot("membersKeeping").Call(fn, jen.Op("&").Id(recvName).Dot(unknownField), jen.Id("outer"))
	}
	return jen.Id("d").Dot("members").Call(fn)
}

// decodeJSONMethod emits decodeJSON with the given result.
func decodeJSONMethod(f *jen.File, goName string, result jen.Code) {
	f.Func().Params(receiver(goName)).Id("decodeJSON").Params(decoderParam).Error().Block(jen.Return(result))
	f.Line()
}

// unmarshalMethod emits the UnmarshalJSON of an object type, which has no
// decodeJSON: the runtime decodes it as an object, through decodeRest.
func unmarshalMethod(f *jen.File, goName string) {
	f.Comment("UnmarshalJSON decodes the value by the schema's rules: required members, and the")
	f.Comment("x-deserialize-* keywords (defaults on error or null, invalid array items dropped).")
	f.Func().Params(receiver(goName)).Id("UnmarshalJSON").Params(jen.Id("data").Index().Byte()).Error().Block(
		jen.Return(jen.Id("decodeObjectBytes").Call(jen.Id("data"), jen.Id(recvName))))
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

// encodeSpec describes the encoders of one Go struct.
type encodeSpec struct {
	goName string
	tag    string // the tag member of a variant, `"type":"text"`, or ""
	// keptTag is the tag name of a variant that keeps the tag it was
	// decoded with in its Tag field, written first when not "".
	keptTag string
	embeds  []string    // embedded payloads, whose members come after the tag
	fields  []*ir.Field // the struct's own fields
	exts    []string    // embedded extension structs, whose members come after the fields
	extra   bool        // the Extra map, whose members come last
	keep    bool        // the members kept in unknownMembers, which come last
	// rawFirst are statements that start appendJSON: writing an unknown
	// variant kept raw as the whole value.
	rawFirst []jen.Code
	// membersOnly leaves out appendJSON and MarshalJSON.
	membersOnly bool
}

// structEncodeSpec describes the encoders of struct type t under goName.
func structEncodeSpec(t *ir.Type, goName string) encodeSpec {
	s := encodeSpec{goName: goName, fields: ownFields(t), extra: t.Extra}
	for _, key := range t.ExtensionKeys() {
		s.exts = append(s.exts, t.Extensions[key])
	}
	return s
}

var (
	bufParam     = jen.Id("b").Index().Byte()
	encodeResult = []jen.Code{jen.Index().Byte(), jen.Error()}
)

// An encodeStep is one member (or run of members) appendMembers writes.
type encodeStep struct {
	code     jen.Code
	fallible bool
	call     jen.Code // a fallible call that is the whole step
}

// encodeSteps lists the steps of a struct's appendMembers, in wire order:
// the tag, the kept tag, embedded structs, fields, extensions, extra
// members and the raw unknown members.
func encodeSteps(s encodeSpec) []encodeStep {
	var steps []encodeStep
	if s.tag != "" {
		steps = append(steps, encodeStep{code: appendName("," + s.tag)})
	}
	if s.keptTag != "" {
		/*
			if v.Tag != "" {
				b = appendName(b, `,"type":`)
				b = appendString(b, v.Tag)
			}
		*/
		steps = append(steps, encodeStep{code: jen.If(jen.Id(recvName).Dot("Tag").Op("!=").Lit("")).Block(
			appendName(","+quote(s.keptTag)+":"),
			jen.Id("b").Op("=").Id("appendString").Call(jen.Id("b"), jen.Id(recvName).Dot("Tag")))})
	}
	for _, emb := range s.embeds {
		steps = append(steps, encodeStep{call: jen.Id(recvName).Dot(emb).Dot("appendMembers").Call(jen.Id("b"))})
	}
	for _, fl := range s.fields {
		code, fallible := fieldEncode(fl)
		steps = append(steps, encodeStep{code: code, fallible: fallible})
	}
	for _, x := range s.exts {
		steps = append(steps, encodeStep{call: jen.Id(recvName).Dot(x).Dot("appendMembers").Call(jen.Id("b"))})
	}
	if s.extra {
		steps = append(steps, encodeStep{call: jen.Id("appendExtra").Call(jen.Id("b"), jen.Id(recvName).Dot("Extra"))})
	}
	if s.keep {
		steps = append(steps, encodeStep{code: jen.Id("b").Op("=").Append(jen.Id("b"), jen.Id(recvName).Dot(unknownField).Op("..."))})
	}
	return steps
}

// membersBody returns the body of appendMembers: the steps, a last
// fallible call returned directly, and the variables the steps use.
func membersBody(s encodeSpec, steps []encodeStep) []jen.Code {
	last := jen.Return(jen.Id("b"), jen.Nil())
	if n := len(steps); n > 0 && steps[n-1].call != nil {
		last = jen.Return(steps[n-1].call)
		steps = steps[:n-1]
	}
	var body []jen.Code
	needErr := false
	for _, st := range steps {
		if st.call != nil {
			body = append(body, tryAppend(st.call))
		} else {
			body = append(body, st.code)
		}
		needErr = needErr || st.call != nil || st.fallible
	}
	if needErr {
		body = append([]jen.Code{jen.Var().Err().Error()}, body...)
	}
	for _, fl := range s.fields {
		if usesStart(fl) {
			body = append([]jen.Code{jen.Var().Id("start").Int()}, body...)
			break
		}
	}
	return append(body, last)
}

// objectEncoders emits appendMembers and MarshalJSON of a struct, and
// appendJSON when it writes a raw unknown variant first.
func objectEncoders(f *jen.File, s encodeSpec) {
	steps := encodeSteps(s)
	recv := receiver(s.goName)
	if len(steps) == 0 {
		recv = jen.Op("*").Id(s.goName)
	}
	body := membersBody(s, steps)
	f.Comment("appendMembers appends the members of v, each after a comma.")
	f.Func().Params(recv).Id("appendMembers").Params(bufParam).Params(encodeResult...).Block(body...)
	f.Line()
	if s.membersOnly {
		return
	}
	if len(s.rawFirst) == 0 {
		// The enclosing struct, encodeObject or encodedObject closes the
		// members.
		marshalMembers(f, s.goName)
		return
	}
	body = append(append([]jen.Code(nil), s.rawFirst...),
		jen.Id("start").Op(":=").Len(jen.Id("b")),
		jen.List(jen.Id("b"), jen.Err()).Op(":=").Id(recvName).Dot("appendMembers").Call(jen.Id("b")),
		jen.Return(jen.Id("closeObject").Call(jen.Id("b"), jen.Id("start"), jen.Err())),
	)
	f.Func().Params(receiver(s.goName)).Id("appendJSON").Params(bufParam).Params(encodeResult...).Block(body...)
	f.Line()
	marshalMethod(f, s.goName, recvName)
}

// marshalMethod emits MarshalJSON on top of appendJSON.
/*
	func (v T) MarshalJSON() ([]byte, error) {
		buf := encodeBuffer()
		b, err := v.appendJSON(*buf)
		return encoded(buf, b, err)
	}
*/
func marshalMethod(f *jen.File, goName, recv string) {
	f.Comment("MarshalJSON encodes the value with its generated encoder.")
	f.Func().Params(jen.Id(recv).Id(goName)).Id("MarshalJSON").Params().Params(encodeResult...).Block(
		jen.Id("buf").Op(":=").Id("encodeBuffer").Call(),
		jen.List(jen.Id("b"), jen.Err()).Op(":=").Id(recv).Dot("appendJSON").Call(jen.Op("*").Id("buf")),
		jen.Return(jen.Id("encoded").Call(jen.Id("buf"), jen.Id("b"), jen.Err())),
	)
	f.Line()
}

// marshalMembers emits the MarshalJSON of a struct, on top of
// appendMembers: the runtime's encodedObject makes the members an object.
/*
	func (v T) MarshalJSON() ([]byte, error) {
		buf := encodeBuffer()
		b, err := v.appendMembers(*buf)
		return encodedObject(buf, b, err)
	}
*/
func marshalMembers(f *jen.File, goName string) {
	f.Comment("MarshalJSON encodes the value with its generated encoder.")
	f.Func().Params(jen.Id(recvName).Id(goName)).Id("MarshalJSON").Params().Params(encodeResult...).Block(
		jen.Id("buf").Op(":=").Id("encodeBuffer").Call(),
		jen.List(jen.Id("b"), jen.Err()).Op(":=").Id(recvName).Dot("appendMembers").Call(jen.Op("*").Id("buf")),
		jen.Return(jen.Id("encodedObject").Call(jen.Id("buf"), jen.Id("b"), jen.Err())),
	)
	f.Line()
}

// extsRequired reports whether some extension struct has required members.
func extsRequired(exts []extRef) bool {
	for _, x := range exts {
		if x.required {
			return true
		}
	}
	return false
}
