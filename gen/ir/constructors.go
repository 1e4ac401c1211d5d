package ir

// Constructor is a function that builds a union value holding one variant,
// so that values nest as one expression without Value wrappers:
//
//	NewSessionUpdateAgentMessageChunk(NewContentBlockText("hi")) // a SessionUpdate
type Constructor struct {
	GoName  string // filled by package names
	Union   *Type
	Variant *Variant
	// Source is the type whose fields the constructor fills, or that it
	// takes whole: the variant's one payload type, or nil for the variant's
	// own fields.
	Source *Type
	// Shared are the union's required shared fields, passed first, in
	// the order of ArgumentLead, then schema order.
	Shared []*Field
	// Params are the variant's required fields passed as parameters, in
	// the order of ArgumentLead, then schema order.
	Params []*Field
	// Order, when not nil, is the order of the parameters when
	// ArgumentLead moves a member of Params before Shared (a session id):
	// the indexes, into Shared then Params, of the parameters in the order
	// the constructor takes them. ParamNames stay in the order of Shared
	// then Params.
	Order []int
	// ParamNames are the Go parameter names, filled by package names: the
	// shared fields', then the payload's (Whole), the value's (Value) or the
	// fields' of Params.
	ParamNames []string
	// Whole: the payload is passed as one value instead of field by field,
	// because it has many optional members a caller will want to set, or
	// because it is a union itself.
	Whole bool
	// Value: the variant is a JSON value other than an object (a string, a
	// number, a list), passed as one parameter of its Go type; a null
	// variant has neither Value nor parameters.
	Value bool
	// Fills are the optional members of the payload (or of the variant)
	// whose default is an object, which the constructor fills with an
	// empty one (see Fill).
	Fills []*Fill
}

// Gate is the gate of the constructor: the variant's, or its union's when
// the union itself is unstable.
func (c *Constructor) Gate() Gate {
	if c.Union.Unstable {
		return c.Union.Gate
	}
	return c.Variant.Gate
}

// Null reports whether the constructor builds the null variant of an
// untagged union, which takes no parameter.
func (c *Constructor) Null() bool { return c.Variant.JSON == KindNull }

// maxOptional is the number of optional members above which a payload is
// passed whole: a tool call (eight optional members) is written as a struct
// literal, a text block (two) as its text.
const maxOptional = 3

// Constructors returns one constructor per known variant of every union:
// tagged variants, the default variant and untagged alternatives, objects
// or not. Only a variant that carries several payloads, or a payload and
// fields of its own, or that needs a required field only build tags add,
// gets none; MissingConstructors lists them.
func Constructors(p *Package) []*Constructor {
	var out []*Constructor
	for _, t := range p.Types {
		if t.Kind != Union {
			continue
		}
		for _, v := range knownVariants(t) {
			if c := constructor(t, v); c != nil {
				out = append(out, c)
			}
		}
	}
	return out
}

// MissingConstructors returns the known variants of p's unions that have
// no constructor in p.Constructors, as "Union/Variant" schema names.
func MissingConstructors(p *Package) []string {
	has := map[*Variant]bool{}
	for _, c := range p.Constructors {
		has[c.Variant] = true
	}
	var out []string
	for _, t := range p.Types {
		if t.Kind != Union {
			continue
		}
		for _, v := range knownVariants(t) {
			if !has[v] {
				out = append(out, t.Name+"/"+v.Name)
			}
		}
	}
	return out
}

// knownVariants returns the variants of union t and its default, without
// the fallback, which only decoding fills.
func knownVariants(t *Type) []*Variant {
	vs := append([]*Variant(nil), t.Union.Variants...)
	if t.Union.Default != nil {
		vs = append(vs, t.Union.Default)
	}
	return vs
}

func constructor(t *Type, v *Variant) *Constructor {
	c := &Constructor{Union: t, Variant: v}
	for _, f := range t.Fields {
		if !f.Required {
			continue
		}
		if f.Unstable && !t.Unstable {
			return nil // see below: not in every build
		}
		c.Shared = append(c.Shared, f)
	}
	argumentOrder(c.Shared)
	if !v.IsObject() {
		c.Value = v.JSON != KindNull
		return c
	}
	fields, owner := v.Fields, &Type{Kind: Struct, Fields: v.Fields}
	switch {
	case len(v.Embeds) == 1 && len(v.Fields) == 0:
		src := v.Embeds[0]
		for src.Kind == Named && src.Underlying.Kind == RefNamed {
			src = src.Underlying.Type
		}
		c.Source = v.Embeds[0]
		switch src.Kind {
		case Struct:
			fields, owner = src.Fields, src
		case Union:
			// A union inside a union (an idle state inside a state
			// update): the inner union's own constructors build it.
			c.Whole = true
			return c
		default:
			return nil
		}
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
		return c
	}
	argumentOrder(c.Params)
	c.Order = argumentPermutation(c.Shared, c.Params)
	c.Fills = DefaultFills(owner)
	return c
}
