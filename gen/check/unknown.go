package check

import "github.com/acpgen/acpgen/gen/ir"

// keepUnknown decides which structs keep the members their schema allows
// without naming them (ir.Type.KeepsUnknown): every struct that neither
// declares additionalProperties nor forbids them, but those decoded as one
// of several parts of an object, which cannot tell the members of the
// other parts from unknown ones: a payload beside other payloads or the
// variant's own fields, an alternative of an untagged union with shared
// fields, and what a union embedded in a variant holds. A payload that is
// a variant's whole object keeps them; the union it is a variant of tells
// it the names of its tag and its shared fields.
func keepUnknown(p *ir.Package) {
	for _, t := range p.Types {
		t.KeepsUnknown = t.Kind == ir.Struct && !t.Extra && !t.Closed
	}
	seen := map[*ir.Type]bool{}
	var part func(t *ir.Type)
	part = func(t *ir.Type) {
		t = resolve(t)
		if seen[t] {
			return
		}
		seen[t] = true
		switch t.Kind {
		case ir.Struct:
			t.KeepsUnknown = false
		case ir.Union:
			for _, v := range t.Union.All() {
				for _, e := range v.Embeds {
					part(e)
				}
			}
		}
	}
	for _, t := range p.Types {
		if t.Kind != ir.Union {
			continue
		}
		for _, v := range t.Union.All() {
			whole := len(v.Embeds) == 1 && len(v.Fields) == 0 && (t.Union.Tag != "" || len(t.Fields) == 0)
			for _, e := range v.Embeds {
				if !whole || resolve(e).Kind != ir.Struct {
					part(e)
				}
			}
		}
	}
}

// resolve follows t through other names for a type to the type itself.
func resolve(t *ir.Type) *ir.Type {
	for t.Kind == ir.Named && t.Underlying.Kind == ir.RefNamed {
		t = t.Underlying.Type
	}
	return t
}
