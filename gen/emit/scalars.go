package emit

import (
	"github.com/dave/jennifer/jen"

	"github.com/acpgen/acpgen/gen/ir"
)

// Scalar codecs. A defined type whose JSON is a string, a number or a
// boolean (SessionID, ProtocolVersion, an enum) is decoded inside a struct
// by the runtime's scalar decoders, which reject null and accept integers
// written 1.0 or 1e2. Its own UnmarshalJSON and MarshalJSON use the same
// decoder and encoder, so that a bare value reads and writes as a member
// does, where encoding/json would turn null into the zero value and reject
// 1.0.

// isScalar reports whether the JSON of t is a string, a number or a
// boolean.
func isScalar(t *ir.Type) bool {
	switch kindOf(ir.Ref{Kind: ir.RefNamed, Type: t}) {
	case encString, encBool, encInt, encUint, encFloat:
		return true
	}
	return false
}

// scalarCodecs emits UnmarshalJSON, unless t has one already (a closed
// enum), and MarshalJSON for t, whose JSON is a scalar.
/*
	func (v *SessionID) UnmarshalJSON(data []byte) error {
		return decodeWith(data, v, decodeString[SessionID])
	}

	func (v SessionID) MarshalJSON() ([]byte, error) {
		return encodeWith(&v, encodeString[SessionID])
	}
*/
func scalarCodecs(f *jen.File, t *ir.Type) {
	ref := ir.Ref{Kind: ir.RefNamed, Type: t}
	if !hasDecoder(t) {
		f.Comment("UnmarshalJSON decodes the value as a member of type " + t.GoName + " is decoded: null is an")
		f.Comment("error, and an integer may be written 1.0 or 1e2 when it is integral and in range.")
		f.Func().Params(receiver(t.GoName)).Id("UnmarshalJSON").Params(jen.Id("data").Index().Byte()).Error().Block(
			jen.Return(jen.Id("decodeWith").Call(jen.Id("data"), jen.Id(recvName), elemDecoder(ref))))
		f.Line()
	}
	f.Comment("MarshalJSON encodes the value as a member of type " + t.GoName + " is encoded.")
	f.Func().Params(jen.Id(recvName).Id(t.GoName)).Id("MarshalJSON").Params().Params(jen.Index().Byte(), jen.Error()).Block(
		jen.Return(jen.Id("encodeWith").Call(jen.Op("&").Id(recvName), elemEncoder(ref))))
	f.Line()
}
