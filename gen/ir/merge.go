package ir

import (
	"fmt"
	"sort"

	"github.com/acpgen/acpgen/gen/diag"
)

// Merge adds to stable what only unstable has, each item marked Unstable:
// definitions, object properties, union variants, enum values and methods.
// Shared items keep the stable file's docs. A shared item that changed in a
// way build tags cannot express (another type, another shape) is an error
// naming both locations. stableFile and unstableFile name the files.
func Merge(stable, unstable *Package, stableFile, unstableFile string) (*Package, error) {
	m := &merger{
		s:     map[string]*Type{},
		uToS:  map[*Type]*Type{},
		sFile: stableFile, uFile: unstableFile,
	}
	for _, t := range stable.Types {
		m.s[t.Name] = t
	}
	for _, ut := range unstable.Types {
		st := m.s[ut.Name]
		if st == nil {
			ut.Unstable = true
			stable.Types = append(stable.Types, ut)
			continue
		}
		m.uToS[ut] = st
	}
	for _, ut := range unstable.Types {
		if st := m.uToS[ut]; st != nil {
			if err := m.shared(st, ut); err != nil {
				return nil, err
			}
		}
	}
	for _, t := range stable.Types {
		m.remapType(t)
	}
	sort.SliceStable(stable.Types, func(i, j int) bool { return stable.Types[i].Name < stable.Types[j].Name })

	type key struct {
		name string
		kind MethodKind
	}
	have := map[key]*Method{}
	for _, sm := range stable.Methods {
		have[key{sm.Name, sm.Kind}] = sm
	}
	for _, um := range unstable.Methods {
		sm := have[key{um.Name, um.Kind}]
		if sm == nil {
			um.Unstable = true
			um.Params = m.remap(um.Params)
			if um.Result != nil {
				um.Result = m.remap(um.Result)
			}
			stable.Methods = append(stable.Methods, um)
			continue
		}
		if sm.Params.Name != um.Params.Name || (sm.Result == nil) != (um.Result == nil) || (sm.Result != nil && sm.Result.Name != um.Result.Name) {
			return nil, diag.New(unstableFile, um.Params.Pointer, "method %q has other params or result types here than in %s", um.Name, stableFile)
		}
	}
	sort.SliceStable(stable.Methods, func(i, j int) bool {
		if stable.Methods[i].Name != stable.Methods[j].Name {
			return stable.Methods[i].Name < stable.Methods[j].Name
		}
		return stable.Methods[i].Kind < stable.Methods[j].Kind
	})
	return stable, nil
}

type merger struct {
	s            map[string]*Type
	uToS         map[*Type]*Type
	sFile, uFile string
}

func (m *merger) differs(what, sPtr, uPtr, detail string) error {
	return diag.New(m.uFile, uPtr, "%s is not the same here as in %s#%s (%s); build tags cannot express that",
		what, m.sFile, sPtr, detail)
}

// shared adds the unstable-only parts of ut to st.
func (m *merger) shared(st, ut *Type) error {
	if st.Kind != ut.Kind {
		return m.differs(st.Name, st.Pointer, ut.Pointer, "kind")
	}
	if st.Extra != ut.Extra || st.Closed != ut.Closed {
		return m.differs(st.Name, st.Pointer, ut.Pointer, "additionalProperties")
	}
	fields, err := m.mergeFields(st.Name, st.Fields, ut.Fields)
	if err != nil {
		return err
	}
	st.Fields = fields
	switch st.Kind {
	case Named:
		if sig(*st.Underlying) != sig(*ut.Underlying) {
			return m.differs(st.Name, st.Pointer, ut.Pointer, sig(*st.Underlying)+" vs "+sig(*ut.Underlying))
		}
	case Enum:
		se, ue := st.Enum, ut.Enum
		if se.Integer != ue.Integer || se.Open != ue.Open {
			return m.differs(st.Name, st.Pointer, ut.Pointer, "enum kind")
		}
		known := map[string]bool{}
		for _, v := range se.Values {
			known[v.Name] = true
		}
		for _, v := range ue.Values {
			if !known[v.Name] {
				v.Unstable = true
				se.Values = append(se.Values, v)
			}
		}
	case Union:
		return m.mergeUnion(st, ut)
	}
	return nil
}

func (m *merger) mergeFields(owner string, sf, uf []*Field) ([]*Field, error) {
	byName := map[string]*Field{}
	for _, f := range sf {
		byName[f.JSONName] = f
	}
	for _, f := range uf {
		s := byName[f.JSONName]
		if s == nil {
			f.Unstable = true
			sf = append(sf, f)
			continue
		}
		if a, b := fieldSig(s), fieldSig(f); a != b {
			return nil, m.differs(owner+"."+f.JSONName, s.Pointer, f.Pointer, a+" vs "+b)
		}
	}
	return sf, nil
}

func (m *merger) mergeUnion(st, ut *Type) error {
	su, uu := st.Union, ut.Union
	if su.Tag != uu.Tag {
		return m.differs(st.Name, st.Pointer, ut.Pointer, fmt.Sprintf("tag %q vs %q", su.Tag, uu.Tag))
	}
	known := map[string]*Variant{}
	for _, v := range su.Variants {
		known[v.Name] = v
	}
	for _, v := range uu.Variants {
		s := known[v.Name]
		if s == nil {
			if su.Tag == "" {
				return m.differs(st.Name, st.Pointer, v.Pointer, "a new untagged alternative "+v.Name)
			}
			v.Unstable = true
			su.Variants = append(su.Variants, v)
			continue
		}
		if a, b := variantSig(s), variantSig(v); a != b {
			return m.differs(st.Name+" variant "+v.Name, s.Pointer, v.Pointer, a+" vs "+b)
		}
	}
	if (su.Default == nil) != (uu.Default == nil) {
		return m.differs(st.Name, st.Pointer, ut.Pointer, "a variant without tag in one file only")
	}
	if su.DefaultTag != uu.DefaultTag || su.UnknownDefault != uu.UnknownDefault {
		return m.differs(st.Name, st.Pointer, ut.Pointer, "a variant without tag that takes other tags in one file only")
	}
	return nil
}

// remap points references at the stable copy of shared types.
func (m *merger) remap(t *Type) *Type {
	if s := m.uToS[t]; s != nil {
		return s
	}
	return t
}

func (m *merger) remapRef(r *Ref) {
	if r == nil {
		return
	}
	if r.Type != nil {
		r.Type = m.remap(r.Type)
	}
	m.remapRef(r.Elem)
}

func (m *merger) remapFields(fs []*Field) {
	for _, f := range fs {
		m.remapRef(&f.Type)
	}
}

func (m *merger) remapType(t *Type) {
	m.remapRef(t.Underlying)
	m.remapFields(t.Fields)
	if t.Union != nil {
		for _, v := range t.Union.All() {
			for i, e := range v.Embeds {
				v.Embeds[i] = m.remap(e)
			}
			m.remapFields(v.Fields)
			m.remapRef(v.Value)
		}
	}
}

// sig describes a reference for comparison across files.
func sig(r Ref) string {
	switch r.Kind {
	case RefNamed:
		return r.Type.Name
	case RefArray:
		return "[]" + sig(*r.Elem)
	case RefMap:
		return "map[string]" + sig(*r.Elem)
	case RefInt:
		if r.Unsigned {
			return fmt.Sprintf("uint%d", r.Bits)
		}
		return fmt.Sprintf("int%d", r.Bits)
	case RefString:
		return "string"
	case RefBool:
		return "boolean"
	case RefFloat:
		return "number"
	}
	return "any JSON value"
}

func fieldSig(f *Field) string {
	s := sig(f.Type)
	if f.Required {
		s += ", required"
	} else {
		s += ", optional"
	}
	if f.Nullable {
		s += ", nullable"
	}
	return s
}

func variantSig(v *Variant) string {
	s := string(v.JSON)
	for _, e := range v.Embeds {
		s += " +" + e.Name
	}
	for _, f := range v.Fields {
		s += " " + f.JSONName + ":" + fieldSig(f)
	}
	if v.Value != nil {
		s += " " + sig(*v.Value)
	}
	return s
}
