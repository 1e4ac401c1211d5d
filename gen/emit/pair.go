package emit

import "github.com/dave/jennifer/jen"

// pair is one part of a generated package written as two files, as
// protobuf's and ogen's generators write theirs: the API, which a user
// reads (declarations, constants, constructors, and their docs), and the
// codec beside it (UnmarshalJSON, MarshalJSON and the decoders and encoders
// they call), types.go and types_json.go. Both files have the same build
// constraint.
type pair struct {
	api, codec *jen.File
}

// codecName is the name of the codec file of the API file name: types.go
// gives types_json.go.
func codecName(name string) string {
	return name[:len(name)-len(".go")] + "_json.go"
}
