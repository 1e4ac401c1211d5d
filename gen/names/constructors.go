package names

import (
	"fmt"
	"go/types"

	"github.com/acpgen/acpgen/gen/ir"
)

// Ptr is the generic helper that returns a pointer to its argument, for
// optional scalar fields.
const Ptr = "Ptr"

// DefaultedMark is the unexported field of a struct that a member whose
// schema default is an object holds (ir.Type.Defaulted), set in the value
// a constructor fills in.
const DefaultedMark = "defaulted"

// constructors sets p.Constructors and p.MethodConstructors and names them:
// New followed by the Go name of the variant (NewContentBlockText builds a
// ContentBlock holding a ContentBlockText) or of the params or result type
// (NewPromptRequest builds a *PromptRequest); parameters are the fields'
// names, unexported, and "value" for the variant of a union.
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
		for _, f := range c.Shared {
			c.ParamNames = append(c.ParamNames, param(f.GoName))
		}
		switch {
		case c.Whole:
			c.ParamNames = append(c.ParamNames, param(c.Source.GoName))
		case c.Value:
			c.ParamNames = append(c.ParamNames, "value")
		}
		for _, f := range c.Params {
			c.ParamNames = append(c.ParamNames, param(f.GoName))
		}
		c.ParamNames = distinct(c.ParamNames)
	}
	p.MethodConstructors = ir.MethodConstructors(p)
	for _, c := range p.MethodConstructors {
		if c.Type.GoName == "" {
			continue
		}
		o := origin{what: "the constructor of " + methodUses(c), file: p.FileOf(c.Type.Gate), pointer: c.Type.Pointer}
		if !a.claim(a.top, "New"+c.Type.GoName, o, &c.GoName) {
			continue
		}
		c.ParamNames = nil
		for _, f := range c.Params {
			c.ParamNames = append(c.ParamNames, param(f.GoName))
		}
		if c.Variant {
			c.ParamNames = append(c.ParamNames, "value")
		}
		c.ParamNames = distinct(c.ParamNames)
	}
}

// distinct makes parameter names unique, numbering a name that is already
// taken (a shared member and a variant's member of one name: name, name2).
func distinct(params []string) []string {
	seen := map[string]bool{}
	for i, p := range params {
		name := p
		for n := 2; seen[name]; n++ {
			name = fmt.Sprintf("%s%d", p, n)
		}
		seen[name] = true
		params[i] = name
	}
	return params
}

// methodUses says what a method constructor builds: "the params of the
// "session/prompt" request", "the result of the "initialize" request".
func methodUses(c *ir.MethodConstructor) string {
	s := c.Type.GoName + ","
	for i, u := range c.Uses {
		if i > 0 {
			s += " and"
		}
		what, kind := "params", "request"
		if u.Result {
			what = "result"
		} else if u.Method.Kind == ir.Notification {
			kind = "notification"
		}
		s += fmt.Sprintf(" the %s of the %q %s", what, u.Method.Name, kind)
	}
	return s
}

// param is the parameter name for a Go name: unexported, with "_" after a
// keyword or a predeclared identifier (error_), which it would shadow.
func param(goName string) string {
	p := unexported(goName)
	if types.Universe.Lookup(p) != nil {
		p += "_"
	}
	return p
}

// shortcuts sets p.Shortcuts and names their parameters: those of their
// steps but each step's last. A shortcut whose name the schema already
// gives to something else is left out, not reported: it is a convenience.
func (a *assigner) shortcuts(p *ir.Package) {
	p.Shortcuts = nil
	for _, s := range ir.Shortcuts(p) {
		if _, taken := a.top[s.Name]; taken {
			continue
		}
		a.claim(a.top, s.Name, origin{what: "the helper " + s.Name}, nil)
		s.ParamNames = nil
		for i, c := range s.Steps {
			names := c.ParamNames
			if i < len(s.Steps)-1 || s.Sets != nil {
				names = names[:len(names)-1]
			}
			s.ParamNames = append(s.ParamNames, names...)
		}
		for _, set := range s.Sets {
			if set.Const == nil {
				s.ParamNames = append(s.ParamNames, param(set.Field.GoName))
			}
		}
		s.ParamNames = distinct(s.ParamNames)
		p.Shortcuts = append(p.Shortcuts, s)
	}
}
