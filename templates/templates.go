// Package templates holds the parts of generated packages that do not
// depend on the schema: the JSON helpers every package shares.
package templates

import (
	_ "embed"
	"strings"
)

//go:embed json.go.tmpl
var jsonHelpers string

// JSONHelpers returns the source of the helper file for package pkg, with
// header as its first comment line.
func JSONHelpers(header, pkg string) []byte {
	r := strings.NewReplacer("{{HEADER}}", header, "{{PACKAGE}}", pkg)
	return []byte(r.Replace(jsonHelpers))
}
