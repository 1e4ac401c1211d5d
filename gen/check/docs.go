package check

import (
	"strings"
	"unicode"

	"github.com/acpgen/acpgen/gen/ir"
)

// lowerDocs makes every description printable as a Go comment: control
// characters other than newline and tab (a NUL, a carriage return) and byte
// order marks, which Go source may not contain, become spaces.
func lowerDocs(p *ir.Package) {
	for _, t := range p.Types {
		t.Doc = commentText(t.Doc)
		lowerFields(t.Fields)
		if t.Enum != nil {
			for _, v := range t.Enum.Values {
				v.Doc = commentText(v.Doc)
			}
		}
		if t.Union != nil {
			for _, v := range t.Union.All() {
				v.Doc = commentText(v.Doc)
				lowerFields(v.Fields)
			}
		}
	}
}

func lowerFields(fields []*ir.Field) {
	for _, f := range fields {
		f.Doc = commentText(f.Doc)
	}
}

func commentText(s string) string {
	if strings.IndexFunc(s, unprintable) < 0 {
		return s
	}
	return strings.Map(func(r rune) rune {
		if unprintable(r) {
			return ' '
		}
		return r
	}, s)
}

func unprintable(r rune) bool {
	return r == '\uFEFF' || (unicode.IsControl(r) && r != '\n' && r != '\t')
}
