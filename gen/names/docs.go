package names

import (
	"strings"
	"unicode"

	"github.com/acpgen/acpgen/gen/ir"
)

// docs converts every description of p to Go doc text once the Go names
// are set: control characters other than newline and tab (a NUL, a
// carriage return) and byte order marks, which Go source may not contain,
// become spaces, and goDoc turns the Markdown into doc comment text, where
// a code span naming a definition (`ToolCall`, `SessionId`) links to its Go
// identifier.
func docs(p *ir.Package) {
	ids := map[string]string{}
	for _, t := range p.Types {
		ids[t.Name] = t.GoName
		ids[t.GoName] = t.GoName
	}
	ident := func(s string) (string, bool) {
		id, ok := ids[s]
		return id, ok
	}
	conv := func(doc *string) { *doc = goDoc(commentText(*doc), ident) }
	fields := func(fs []*ir.Field) {
		for _, f := range fs {
			conv(&f.Doc)
		}
	}
	for _, t := range p.Types {
		conv(&t.Doc)
		fields(t.Fields)
		if t.Enum != nil {
			for _, v := range t.Enum.Values {
				conv(&v.Doc)
			}
		}
		if t.Union != nil {
			for _, v := range t.Union.All() {
				conv(&v.Doc)
				fields(v.Fields)
			}
		}
	}
}

// commentText replaces what a Go comment cannot hold with spaces.
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
