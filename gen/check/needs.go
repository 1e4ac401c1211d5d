package check

import (
	"strings"

	"github.com/acpgen/acpgen/gen/ir"
)

// needs indexes the definitions and methods of a package by schema name,
// for the files the generator writes against named definitions (the
// session files, the bridge of the convert package) to state what they
// need of a schema.
type needs struct {
	types   map[string]*ir.Type
	methods map[string]*ir.Method
}

// needsOf indexes the types and methods of p.
func needsOf(p *ir.Package) needs {
	n := needs{types: map[string]*ir.Type{}, methods: map[string]*ir.Method{}}
	for _, t := range p.Types {
		n.types[t.Name] = t
	}
	for _, m := range p.Methods {
		n.methods[m.Name] = m
	}
	return n
}

// gate returns the gate that the requirement need lives behind, or nil
// when the package does not meet it. A requirement is one of:
//
//   - "method/name": the method.
//   - "Type": the definition.
//   - "Type:tag": the variant of the tagged union Type whose tag is tag.
//   - "Type:": the variant of the tagged union Type for values without a
//     tag, which a tagged union may have.
//   - "Type=value": a value of the enum Type.
//   - "Type.member": a member of Type whose null means nothing of its own.
//   - "Type.member!": a required member.
//   - "Type.member?": an optional member, whatever its null means.
//   - "Type.member~": an optional member whose null means something (a
//     Nullable in Go).
//   - "Type.* m1 m2 …": every member of Type, each in one of the member
//     forms above, all stable: a member the list leaves out fails it, so
//     code that must handle every member (a patch) is refused rather than
//     generated incomplete.
//
// The members of a union are those its variants share and, when it has
// one, those its unknown variant keeps. The gate is that of the method,
// the definition, or the variant or member when it has a gate of its own.
// A caller that needs a requirement stable checks the gate's Unstable.
func (n needs) gate(need string) *ir.Gate {
	if m, ok := n.methods[need]; ok {
		return &m.Gate
	}
	if name, tag, ok := strings.Cut(need, ":"); ok {
		return variantGate(n.types[name], tag)
	}
	if name, value, ok := strings.Cut(need, "="); ok {
		t := n.types[name]
		if t == nil || t.Enum == nil {
			return nil
		}
		for _, v := range t.Enum.Values {
			if v.Name == value {
				return &t.Gate
			}
		}
		return nil
	}
	name, members, _ := strings.Cut(need, ".")
	t := n.types[name]
	if t == nil {
		return nil
	}
	if members == "" {
		return &t.Gate
	}
	if list, ok := strings.CutPrefix(members, "* "); ok {
		return membersGate(t, strings.Fields(list))
	}
	return memberGate(t, members)
}

// variantGate returns the gate of the variant of the tagged union t whose
// tag is tag, or of its variant without a tag when tag is "".
func variantGate(t *ir.Type, tag string) *ir.Gate {
	if t == nil || t.Union == nil || t.Union.Tag == "" {
		return nil
	}
	if tag == "" && t.Union.Default != nil {
		return &t.Gate
	}
	for _, v := range t.Union.Variants {
		if v.Tag == tag {
			if v.Unstable {
				return &v.Gate
			}
			return &t.Gate
		}
	}
	return nil
}

// membersGate checks that t has exactly the members listed, all stable.
func membersGate(t *ir.Type, members []string) *ir.Gate {
	if len(t.Fields) != len(members) {
		return nil
	}
	for _, m := range members {
		if g := memberGate(t, m); g == nil || g.Unstable {
			return nil
		}
	}
	return &t.Gate
}

// memberGate checks one member of t: "name", "name!", "name?" or "name~".
func memberGate(t *ir.Type, member string) *ir.Gate {
	name := strings.TrimRight(member, "!?~")
	fields := t.Fields
	if t.Union != nil && t.Union.Fallback != nil {
		fields = append(fields[:len(fields):len(fields)], t.Union.Fallback.Fields...)
	}
	for _, f := range fields {
		if f.JSONName != name {
			continue
		}
		switch {
		case strings.HasSuffix(member, "!") && !f.Required,
			strings.HasSuffix(member, "?") && f.Required,
			strings.HasSuffix(member, "~") && !f.NullMeans,
			name == member && f.NullMeans:
			return nil
		}
		if f.Unstable {
			return &f.Gate
		}
		return &t.Gate
	}
	return nil
}
