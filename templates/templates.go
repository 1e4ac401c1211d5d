// Package templates holds the parts of generated packages that do not
// depend on the schema: the JSON helpers every package shares, the runtimes
// of the generated decoders and encoders, and the JSON-RPC message layer.
package templates

import (
	"embed"
	"strings"
)

//go:embed json.go.tmpl
var jsonHelpers string

//go:embed rpc.go.tmpl
var rpc string

//go:embed rpcdecode.go.tmpl
var rpcDecode string

//go:embed tracker.go.tmpl
var tracker string

//go:embed conn.go.tmpl
var conn string

//go:embed conn_io.go.tmpl
var connIO string

//go:embed conn_parse.go.tmpl
var connParse string

//go:embed conn_serve.go.tmpl
var connServe string

//go:embed conn_init_v1.go.tmpl
var connInitV1 string

//go:embed conn_init_v2.go.tmpl
var connInitV2 string

//go:embed decode.go.tmpl
var decode string

//go:embed decode_checks.go.tmpl
var decodeChecks string

//go:embed encode.go.tmpl
var encode string

//go:embed convert_*.go.tmpl
var convert embed.FS

// Convert returns the source of file name (one of ConvertFiles: "doc.go",
// "plan.go", "bridge.go", …) of the convert package, which translates
// between the generated packages whose import paths are acpv1 and acpv2;
// constraint, if not empty, is the file's build constraint.
func Convert(name, header, constraint, acpv1, acpv2 string) ([]byte, error) {
	src, err := convert.ReadFile("convert_" + name + ".tmpl")
	if err != nil {
		return nil, err
	}
	if constraint != "" {
		constraint = "\n//go:build " + constraint + "\n"
	}
	return []byte(strings.NewReplacer("{{HEADER}}", header, "{{BUILD}}", constraint,
		"{{ACPV1}}", acpv1, "{{ACPV2}}", acpv2).Replace(string(src))), nil
}

// ConvertFiles returns the names of the files of the convert package that
// Convert writes, sorted.
func ConvertFiles() []string {
	entries, err := convert.ReadDir(".")
	if err != nil {
		return nil
	}
	var names []string
	for _, e := range entries {
		names = append(names, strings.TrimSuffix(strings.TrimPrefix(e.Name(), "convert_"), ".tmpl"))
	}
	return names
}

// JSONHelpers returns the source of the helper file for package pkg, with
// header as its first comment line.
func JSONHelpers(header, pkg string) []byte { return fill(jsonHelpers, header, pkg) }

// Decoder returns the source of the decoding runtime file for package pkg.
func Decoder(header, pkg string) []byte { return fill(decode, header, pkg) }

// DecoderChecks returns the source of the decoding runtime's checks for
// package pkg: the schema's validation keywords and the members an unknown
// variant shares.
func DecoderChecks(header, pkg string) []byte { return fill(decodeChecks, header, pkg) }

// Encoder returns the source of the encoding runtime file for package pkg.
func Encoder(header, pkg string) []byte { return fill(encode, header, pkg) }

// RPC returns the source of the JSON-RPC message file for package pkg,
// whose Error's code has the Go type codeType (ErrorCode in current
// schemas; int32 in schemas that name no code type).
func RPC(header, pkg, codeType string) []byte {
	return []byte(strings.ReplaceAll(string(fill(rpc, header, pkg)), "{{ERROR_CODE}}", codeType))
}

// RPCDecoder returns the source of the one-pass JSON-RPC message decoder
// for package pkg, whose Error's code has the Go type codeType.
func RPCDecoder(header, pkg, codeType string) []byte {
	return []byte(strings.ReplaceAll(string(fill(rpcDecode, header, pkg)), "{{ERROR_CODE}}", codeType))
}

// Tracker returns the source of the request tracker for package pkg, which
// types a response's result by the method of the request it answers.
func Tracker(header, pkg string) []byte { return fill(tracker, header, pkg) }

// Conn returns the source of the connection runtime file for package pkg.
func Conn(header, pkg string) []byte { return fill(conn, header, pkg) }

// ConnFiles are the names of the files of the connection runtime beside
// conn.go and conn_init.go, in the order ConnFile takes them.
var ConnFiles = []string{"conn_io.go", "conn_parse.go", "conn_serve.go"}

// ConnFile returns the source of the connection runtime file name, one of
// ConnFiles, for package pkg: conn_io.go holds the limits and options, the
// outbound queue and its writer and the line reader, conn_parse.go the
// one-pass reading of a line and the writing of messages, conn_serve.go
// the serving of inbound requests.
func ConnFile(name, header, pkg string) []byte {
	switch name {
	case "conn_parse.go":
		return fill(connParse, header, pkg)
	case "conn_serve.go":
		return fill(connServe, header, pkg)
	}
	return fill(connIO, header, pkg)
}

// ConnInit returns the source of the file of package pkg that holds back
// what reaches an agent before it has answered initialize, by the rules of
// the TypeScript SDK for protocol version ("v1", "v2"; the rules of v2 for
// any later version).
func ConnInit(header, pkg, version string) []byte {
	if version == "v1" {
		return fill(connInitV1, header, pkg)
	}
	return fill(connInitV2, header, pkg)
}

// The generated decoders read JSON with jsontext, from the module
// DecoderModule; a module that holds generated packages requires it at
// DecoderVersion or later. DecoderVersion is the oldest version they are
// tested with: its go.mod declares go 1.22, as generated code allows.
const (
	DecoderModule  = "github.com/go-json-experiment/json"
	DecoderVersion = "v0.0.0-20240815174924-0599f16bf0e2"
)

// DecoderSum holds the go.sum lines of DecoderModule at DecoderVersion.
const DecoderSum = DecoderModule + " " + DecoderVersion + " h1:T01ryfhob+ta3ADOh2B2FLA1cFLVOaQJH/iwh22rIFM=\n" +
	DecoderModule + " " + DecoderVersion + "/go.mod h1:uDEMZSTQMj7V6Lxdrx4ZwchmHEGdICbjuY+GQd7j9LM=\n"

// Module returns the go.mod and go.sum of a module named path that holds
// generated packages, for the go directive goVersion.
func Module(path, goVersion string) (gomod, gosum []byte) {
	gomod = []byte("module " + path + "\n\ngo " + goVersion + "\n\nrequire " + DecoderModule + " " + DecoderVersion + "\n")
	return gomod, []byte(DecoderSum)
}

func fill(src, header, pkg string) []byte {
	return []byte(strings.NewReplacer("{{HEADER}}", header, "{{PACKAGE}}", pkg).Replace(src))
}
