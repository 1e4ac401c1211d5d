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
	p       *ir.Package
	types   map[string]*ir.Type
	methods map[string]*ir.Method
}

// needsOf indexes the types and methods of p.
func needsOf(p *ir.Package) needs {
	n := needs{p: p, types: map[string]*ir.Type{}, methods: map[string]*ir.Method{}}
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
//   - "Type.member!@Def" (after any of the member forms): and the member's
//     value is the definition Def, which code that compares or converts it
//     with values of Def relies on.
//   - "Type#string": the definition is a string (a named string or a string
//     enum), which code that keys maps with it or converts it to and from
//     string relies on.
//   - "Type(m1 m2 …)": the constructor of the params or result Type
//     (NewType) takes the members listed, in this order, and "*" for the
//     variant of a union; "Type:tag(m1 …)": the constructor of the variant
//     takes them, "*" for a payload or value passed whole. Code that calls
//     a constructor relies on its parameters, which follow the order of
//     the schema's properties.
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
	if head, list, ok := strings.Cut(need, "("); ok {
		return n.constructorGate(head, strings.Fields(strings.TrimSuffix(list, ")")))
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
	if name, kind, ok := strings.Cut(need, "#"); ok {
		return kindGate(n.types[name], kind)
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
	member, def, typed := strings.Cut(member, "@")
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
			name == member && f.NullMeans,
			typed && (f.Type.Kind != ir.RefNamed || f.Type.Type.Name != def || f.Type.Type.Parent != nil):
			return nil
		}
		if f.Unstable {
			return &f.Gate
		}
		return &t.Gate
	}
	return nil
}

// kindGate checks that t is a definition of the kind named: "string".
func kindGate(t *ir.Type, kind string) *ir.Gate {
	if t == nil || kind != "string" {
		return nil
	}
	switch {
	case t.Kind == ir.Named && t.Underlying.Kind == ir.RefString,
		t.Kind == ir.Enum && !t.Enum.Integer:
		return &t.Gate
	}
	return nil
}

// constructorGate checks the parameters of the constructor that head names:
// "Type" for the params or result type, "Type:tag" for a variant.
func (n needs) constructorGate(head string, params []string) *ir.Gate {
	var got []string
	var gate *ir.Gate
	if name, tag, ok := strings.Cut(head, ":"); ok {
		if gate = variantGate(n.types[name], tag); gate == nil {
			return nil
		}
		var c *ir.Constructor
		for _, k := range ir.Constructors(n.p) {
			if k.Union.Name == name && (k.Variant.Tag == tag && tag != "" || tag == "" && k.Variant == k.Union.Union.Default) {
				c = k
			}
		}
		if c == nil {
			return nil
		}
		got = jsonNames(c.Shared)
		if c.Whole || c.Value {
			got = append(got, "*")
		} else {
			got = append(got, jsonNames(c.Params)...)
		}
	} else {
		var c *ir.MethodConstructor
		for _, k := range ir.MethodConstructors(n.p) {
			if k.Type.Name == head && k.Type.Parent == nil {
				c = k
			}
		}
		if c == nil {
			return nil
		}
		gate = &c.Type.Gate
		got = jsonNames(c.Params)
		if c.Variant {
			got = append(got, "*")
		}
	}
	if strings.Join(got, " ") != strings.Join(params, " ") {
		return nil
	}
	return gate
}

// jsonNames returns the JSON names of fs.
func jsonNames(fs []*ir.Field) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.JSONName
	}
	return out
}
