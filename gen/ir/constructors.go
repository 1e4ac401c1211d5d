package ir

// Constructor is a function that builds a union value holding one variant,
// so that values nest as one expression without Value wrappers:
//
//	NewSessionUpdateAgentMessageChunk(NewContentBlockText("hi")) // a SessionUpdate
type Constructor struct {
	GoName  string // filled by package names
	Union   *Type
	Variant *Variant
	// Source is the struct whose fields the constructor fills: the variant's
	// one payload type, or nil for the variant's own fields.
	Source *Type
	// Params are the required fields passed as parameters, in schema order.
	Params []*Field
	// ParamNames are the Go parameter names, filled by package names.
	ParamNames []string
	// Whole: the payload is passed as one value instead of field by field,
	// because it has many optional members a caller will want to set.
	Whole bool
}

// Gate is the gate of the constructor: the variant's, or its union's when
// the union itself is unstable.
func (c *Constructor) Gate() Gate {
	if c.Union.Unstable {
		return c.Union.Gate
	}
	return c.Variant.Gate
}

// maxOptional is the number of optional members above which a payload is
// passed whole: a tool call (eight optional members) is written as a struct
// literal, a text block (two) as its text.
const maxOptional = 3

// Constructors returns one constructor per known object variant of every
// union: tagged variants, the default variant and untagged object
// alternatives. A variant that carries several payloads, or a payload and
// fields of its own, gets none: a struct literal says it as well.
func Constructors(p *Package) []*Constructor {
	var out []*Constructor
	for _, t := range p.Types {
		if t.Kind != Union {
			continue
		}
		vs := append([]*Variant(nil), t.Union.Variants...)
		if t.Union.Default != nil {
			vs = append(vs, t.Union.Default)
		}
		for _, v := range vs {
			if c := constructor(t, v); c != nil {
				out = append(out, c)
			}
		}
	}
	return out
}

func constructor(t *Type, v *Variant) *Constructor {
	if !v.IsObject() || hasRequiredShared(t) {
		return nil
	}
	c := &Constructor{Union: t, Variant: v}
	fields := v.Fields
	switch {
	case len(v.Embeds) == 1 && len(v.Fields) == 0:
		src := v.Embeds[0]
		for src.Kind == Named && src.Underlying.Kind == RefNamed {
			src = src.Underlying.Type
		}
		if src.Kind != Struct {
			return nil
		}
		c.Source, fields = v.Embeds[0], src.Fields
	case len(v.Embeds) > 0:
		return nil
	}
	optional := 0
	for _, f := range fields {
		switch {
		case f.Required && f.Unstable && !v.Unstable && !t.Unstable:
			// A required field that build tags add: the constructor
			// cannot name it in every build.
			return nil
		case f.Required:
			c.Params = append(c.Params, f)
		case f.JSONName != "_meta":
			optional++
		}
	}
	if c.Source != nil && optional > maxOptional {
		c.Params, c.Whole = nil, true
	}
	return c
}

// hasRequiredShared reports whether every variant of t must carry shared
// fields that a constructor of one variant cannot fill.
func hasRequiredShared(t *Type) bool {
	for _, f := range t.Fields {
		if f.Required {
			return true
		}
	}
	return false
}
