package names

import "github.com/acpgen/acpgen/gen/ir"

// docs converts every description of p with GoDoc once the Go names are
// set: a code span naming a definition (`ToolCall`, `SessionId`) links to
// its Go identifier.
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
	conv := func(doc *string) { *doc = GoDoc(*doc, ident) }
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
