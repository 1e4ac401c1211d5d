package names

import (
	"fmt"

	"github.com/acpgen/acpgen/gen/ir"
)

// Assign fills in the Go identifiers of every type, field, variant, enum
// constant and method of p. Collisions are resolved here and nowhere else:
// a variant or constant whose natural name is taken gets the suffix
// "Variant" or "Value"; any other clash is an error.
func Assign(p *ir.Package) error {
	a := &assigner{taken: map[string]string{}}
	for _, name := range Runtime {
		a.taken[name] = "the runtime"
	}
	for _, t := range p.Types {
		if err := a.claim(Destutter(Exported(t.Name)), t.Pointer, &t.GoName); err != nil {
			return err
		}
	}
	for _, t := range p.Types {
		if err := a.members(t); err != nil {
			return err
		}
	}
	if err := a.claim(Ptr, "the Ptr helper", new(string)); err != nil {
		return err
	}
	if err := a.constructors(p); err != nil {
		return err
	}
	if err := a.methods(p); err != nil {
		return err
	}
	if err := a.sides(p); err != nil {
		return err
	}
	docs(p)
	return nil
}

type assigner struct {
	taken map[string]string // Go name → what has it
}

func (a *assigner) claim(name, what string, dst *string) error {
	if !Valid(name) {
		return fmt.Errorf("%s: %q is not a valid Go identifier", what, name)
	}
	if prev, ok := a.taken[name]; ok {
		return fmt.Errorf("%s: Go name %s is already used by %s", what, name, prev)
	}
	a.taken[name] = what
	*dst = name
	return nil
}

// claimOr claims name, or name+suffix when name is taken.
func (a *assigner) claimOr(name, suffix, what string, dst *string) error {
	if _, ok := a.taken[name]; ok {
		name += suffix
	}
	return a.claim(name, what, dst)
}

func (a *assigner) members(t *ir.Type) error {
	if err := fieldNames(t.Pointer, t.Fields); err != nil {
		return err
	}
	if t.Extra {
		for _, f := range t.Fields {
			if f.GoName == "Extra" {
				return fmt.Errorf("%s: property %q clashes with the Extra field that keeps unnamed members", f.Pointer, f.JSONName)
			}
		}
	}
	switch t.Kind {
	case ir.Enum:
		for _, v := range t.Enum.Values {
			if err := a.claimOr(Join(t.GoName, v.Name), "Value", t.Pointer+" value "+v.Name, &v.GoName); err != nil {
				return err
			}
		}
	case ir.Union:
		var iface string
		if err := a.claim(t.GoName+"Variant", t.Pointer+" (interface)", &iface); err != nil {
			return err
		}
		for _, v := range t.Union.All() {
			if err := a.claimOr(Join(t.GoName, v.Name), "Variant", v.Pointer, &v.GoName); err != nil {
				return err
			}
			if err := fieldNames(v.Pointer, v.Fields); err != nil {
				return err
			}
		}
		for _, f := range t.Fields {
			if f.GoName == "Value" || (f.GoName == "Tag" && t.Union.Tag != "") {
				return fmt.Errorf("%s: property %q clashes with the union's %s", f.Pointer, f.JSONName, f.GoName)
			}
		}
		if fb := t.Union.Fallback; fb != nil {
			for _, f := range fb.Fields {
				if f.GoName == "Tag" || f.GoName == "Raw" {
					return fmt.Errorf("%s: property %q clashes with the fallback's %s field", f.Pointer, f.JSONName, f.GoName)
				}
			}
		}
	}
	return nil
}

func fieldNames(where string, fields []*ir.Field) error {
	seen := map[string]string{}
	for _, f := range fields {
		f.GoName = Exported(f.JSONName)
		if !Valid(f.GoName) {
			return fmt.Errorf("%s: property %q gives no valid Go name", f.Pointer, f.JSONName)
		}
		if prev, ok := seen[f.GoName]; ok {
			return fmt.Errorf("%s: properties %q and %q both become %s", where, prev, f.JSONName, f.GoName)
		}
		seen[f.GoName] = f.JSONName
	}
	return nil
}
