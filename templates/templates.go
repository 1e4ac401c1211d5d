// Package templates holds the parts of generated packages that do not
// depend on the schema: the JSON helpers every package shares, and the
// JSON-RPC message layer.
package templates

import (
	_ "embed"
	"strings"
)

//go:embed json.go.tmpl
var jsonHelpers string

//go:embed rpc.go.tmpl
var rpc string

// JSONHelpers returns the source of the helper file for package pkg, with
// header as its first comment line.
func JSONHelpers(header, pkg string) []byte { return fill(jsonHelpers, header, pkg) }

// RPC returns the source of the JSON-RPC message file for package pkg.
func RPC(header, pkg string) []byte { return fill(rpc, header, pkg) }

func fill(src, header, pkg string) []byte {
	return []byte(strings.NewReplacer("{{HEADER}}", header, "{{PACKAGE}}", pkg).Replace(src))
}
