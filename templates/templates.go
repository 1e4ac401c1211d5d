// Package templates holds the parts of generated packages that do not
// depend on the schema: the JSON helpers every package shares, the runtimes
// of the generated decoders and encoders, and the JSON-RPC message layer.
package templates

import (
	"embed"
	"strings"
)

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
