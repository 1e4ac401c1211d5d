// Package templates holds the parts of generated packages that do not
// depend on the schema: the JSON helpers every package shares, the runtimes
// of the generated decoders and encoders, the JSON-RPC message layer, the
// connections, the sessions, the turns and the convert package.
//
// Each runtime file is a Go file named as the file it becomes, in a folder
// by what it serves:
//
//	codec/    the JSON helpers, the decoders' and the encoders' runtimes
//	jsonrpc/  the JSON-RPC message layer and the request tracker
//	conn/     the connections of an agent and a client
//	session/  the session runtime
//	turn/     the turn runtime (the v2 prompt lifecycle)
//	convert/  the convert package between v1 and v2
//
// A file whose rules differ between protocol versions sits in a subfolder
// of its area named for the version (session/v1/session_state.go); a
// version without one of its own takes the latest version's.
//
// The files reference the schema's types, which exist only in a generated
// package, so they are kept out of every build by their first line, the
// constraint "//go:build ignore" (go build ./..., go vet ./... and go test
// ./... pass over the folders). They are otherwise ordinary Go, which
// gofmt, go/parser and an editor read; a test parses every one, and go vet
// checks them as files of the generated packages. Writing a file, the
// generator fills in three things, none of which breaks parsing:
//
//   - the constraint line gives way to the generated file's header comment
//     and, where the file has one, its build constraint;
//   - the package clause "package acp" takes the generated package's name
//     (the convert package's files say "package convert", its name);
//   - in the convert package, the import paths of the checked-in packages
//     "github.com/acpgen/acpgen/generated/acpv1" and ".../acpv2" become
//     those of the packages generated beside it; in the others, the type
//     ErrorCode becomes the Go type of the schema's error code where the
//     schema names none (a type-renaming of identifiers, comments aside).
//
// No file has template logic of its own: what differs between packages is
// which files a package carries (Runtimes) and, for a file whose rules
// differ between versions, which version's file.
package templates

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"strings"
)

//go:embed convert
var convert embed.FS

// The import paths that the files of the convert package name the two
// versions' packages by: the checked-in generated packages.
const (
	convertV1 = `"github.com/acpgen/acpgen/generated/acpv1"`
	convertV2 = `"github.com/acpgen/acpgen/generated/acpv2"`
)

// Convert returns the source of file name (one of ConvertFiles: "doc.go",
// "plan.go", "bridge.go", …) of the convert package, which translates
// between the generated packages whose import paths are acpv1 and acpv2;
// constraint, if not empty, is the file's build constraint.
func Convert(name, header, constraint, acpv1, acpv2 string) ([]byte, error) {
	src, err := convert.ReadFile(path.Join("convert", name))
	if err != nil {
		return nil, err
	}
	out, err := fill(name, src, header, constraint)
	if err != nil {
		return nil, err
	}
	return []byte(strings.NewReplacer(convertV1, `"`+acpv1+`"`, convertV2, `"`+acpv2+`"`).Replace(string(out))), nil
}

// ConvertFiles returns the names of the files of the convert package that
// Convert writes, sorted.
func ConvertFiles() []string {
	names, err := fs.Glob(convert, "convert/*.go")
	if err != nil {
		return nil
	}
	for i, name := range names {
		names[i] = path.Base(name)
	}
	return names
}

// ignore is the first line of every runtime file: the constraint that
// keeps it out of the builds of this module.
const ignore = "//go:build ignore\n"

// fill returns src, the runtime file name, with its constraint line
// replaced by the header comment and the build constraint, if any.
func fill(name string, src []byte, header, constraint string) ([]byte, error) {
	rest, ok := strings.CutPrefix(string(src), ignore)
	if !ok {
		return nil, fmt.Errorf("templates: %s does not begin with the line %q", name, strings.TrimSpace(ignore))
	}
	if constraint != "" {
		constraint = "\n//go:build " + constraint + "\n"
	}
	return []byte("// " + header + "\n" + constraint + rest), nil
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
