// Package check is the stage between the IR and the emitter: it rejects what
// the emitter cannot write as Go that compiles and means what the schema
// says, each problem located in its schema file; it lowers what the
// emitter prints as it is (doc comments) to text Go accepts, and decides
// the classifications the emitter reads (Lower). After it (and package
// names) the emitter has nothing left to refuse.
//
// Errors: a struct that holds itself by value through required properties
// (Go has no such type), a defined type that is another name for itself,
// duplicate union tags or enum values, untagged unions whose alternatives
// the decoder cannot tell apart, properties with an empty name, objects with
// more than 64 required members (the decoders track them in one uint64),
// variants and shared fields the emitter has no encoding for, enum values
// that exist only in the unstable schema, and definitions the JSON-RPC
// runtime uses by name (RequestId, Error, …) in a shape its code cannot use.
package check

import (
	"github.com/acpgen/acpgen/gen/diag"
	"github.com/acpgen/acpgen/gen/ir"
)

// Package lowers p (Lower) and checks it. Problems are returned together
// as a *diag.List, located in p's schema files.
func Package(p *ir.Package) error {
	c := &checker{p: p, shape: newShaper()}
	lower(p, c.shape)
	keepUnknown(p)
	c.cycles()
	for _, t := range p.Types {
		c.typ(t)
	}
	c.runtime()
	return c.errs.Err()
}

type checker struct {
	p    *ir.Package
	errs diag.List

	shape       *shaper // the unions' shapes, as lowered
	methodTypes map[*ir.Type]bool
}

func (c *checker) errorf(g ir.Gate, pointer, format string, args ...any) {
	c.errs.Addf(c.p.FileOf(g), pointer, format, args...)
}

// MaxRequired is the most required members an object can have: the
// decoders mark the ones they saw in a uint64.
const MaxRequired = 64

func (c *checker) typ(t *ir.Type) {
	c.fields(t.Gate, t.Pointer, t.Name, t.Fields)
	switch t.Kind {
	case ir.Enum:
		c.enum(t)
	case ir.Union:
		c.union(t)
	}
}

// fields checks the properties of one object.
func (c *checker) fields(g ir.Gate, pointer, owner string, fields []*ir.Field) {
	required := 0
	for _, f := range fields {
		if f.JSONName == "" {
			c.errorf(f.Gate, f.Pointer, "a property with an empty name cannot become a Go field")
		}
		if f.Required {
			required++
		}
	}
	if required > MaxRequired {
		c.errorf(g, pointer, "%s has %d required properties; acpgen supports at most %d", owner, required, MaxRequired)
	}
}

func (c *checker) enum(t *ir.Type) {
	seen := map[any]string{}
	for _, v := range t.Enum.Values {
		var key any = v.String
		if t.Enum.Integer {
			key = v.Int
		}
		if prev, ok := seen[key]; ok {
			c.errorf(v.Gate, t.Pointer, "enum %s has the value %v twice (%s and %s)", t.Name, key, prev, v.Name)
		}
		seen[key] = v.Name
		if v.Unstable && !t.Unstable {
			c.errorf(v.Gate, t.Pointer, "value %q of %s exists only in the unstable schema; acpgen cannot put one value of an enum behind a build tag", v.Name, t.Name)
		}
	}
}
