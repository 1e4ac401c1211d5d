package names

import (
	"go/types"

	"github.com/acpgen/acpgen/gen/ir"
)

// Ptr is the generic helper that returns a pointer to its argument, for
// optional scalar fields.
const Ptr = "Ptr"

// constructors sets p.Constructors and names them: New followed by the
// variant's Go name (NewContentBlockText builds a ContentBlock holding a
// ContentBlockText); parameters are the fields' names, unexported.
func (a *assigner) constructors(p *ir.Package) {
	p.Constructors = ir.Constructors(p)
	for _, c := range p.Constructors {
		if c.Variant.GoName == "" {
			continue // its own name is already an error
		}
		o := origin{what: "the constructor of variant " + c.Variant.GoName, file: p.FileOf(c.Variant.Gate), pointer: c.Variant.Pointer}
		if !a.claim(a.top, "New"+c.Variant.GoName, o, &c.GoName) {
			continue
		}
		c.ParamNames = nil
		if c.Whole {
			c.ParamNames = []string{param(c.Source.GoName)}
		}
		for _, f := range c.Params {
			c.ParamNames = append(c.ParamNames, param(f.GoName))
		}
	}
}

// param is the parameter name for a Go name: unexported, with "_" after a
// keyword or a predeclared identifier (error_), which it would shadow.
func param(goName string) string {
	p := Unexported(goName)
	if types.Universe.Lookup(p) != nil {
		p += "_"
	}
	return p
}
