package ir

// MethodConstructor is a function that returns a new params or result value
// of a method with its required fields set, as the pointer that handlers and
// outbound calls take:
//
//	NewSessionNotification(id, update) // a *SessionNotification
//
// The caller sets the optional fields on the value it returns.
type MethodConstructor struct {
	GoName string // filled by package names
	// Type is the params or result type; Source is the struct or union whose
	// fields it has: Type itself, or the type that Type is another name for.
	Type, Source *Type
	// Uses are the methods whose params or result Type is, in method order.
	Uses []MethodUse
	// Params are the required fields passed as parameters, in the order of
	// ArgumentLead, then schema order.
	Params []*Field
	// Variant: Source is a union, and its variant (the Value field) is the
	// last parameter.
	Variant bool
	// ParamNames are the Go parameter names, the variant's last, filled by
	// package names.
	ParamNames []string
	// Fills are the optional members whose default is an object, which
	// the constructor fills with an empty one (see Fill).
	Fills []*Fill
}

// MethodUse is one method whose params (or result) a type is.
type MethodUse struct {
	Method *Method
	Result bool
}

// Gate is the gate of the constructor: its type's.
func (c *MethodConstructor) Gate() Gate {
	return c.Type.Gate
}

// MethodConstructors returns one constructor per params and result type of
// the methods of p, in the order of the methods, params before result.
// A type that is free-form JSON gets none (any JSON value is one), and
// neither does one that build tags would give a required field the
// constructor cannot name in every build where it is declared: a required
// field that only the unstable schema has, of a stable type, unless the
// constructor is behind the same tags; or a type that names an unstable
// type of other tags.
func MethodConstructors(p *Package) []*MethodConstructor {
	var out []*MethodConstructor
	byType := map[*Type]*MethodConstructor{}
	add := func(m *Method, t *Type, result bool) {
		if c := byType[t]; c != nil {
			c.Uses = append(c.Uses, MethodUse{m, result})
			return
		}
		if c := methodConstructor(t); c != nil {
			c.Uses = []MethodUse{{m, result}}
			byType[t] = c
			out = append(out, c)
		}
	}
	for _, m := range p.Methods {
		add(m, m.Params, false)
		if m.Result != nil {
			add(m, m.Result, true)
		}
	}
	return out
}

func methodConstructor(t *Type) *MethodConstructor {
	src := t
	for src.Kind == Named && src.Underlying.Kind == RefNamed {
		src = src.Underlying.Type
	}
	if src.Kind != Struct && src.Kind != Union {
		return nil
	}
	if src.Unstable && src.Key() != t.Key() {
		return nil
	}
	c := &MethodConstructor{Type: t, Source: src, Variant: src.Kind == Union}
	for _, f := range src.Fields {
		if !f.Required {
			continue
		}
		if f.Unstable && !src.Unstable && f.Key() != t.Key() {
			return nil
		}
		c.Params = append(c.Params, f)
	}
	argumentOrder(c.Params)
	if src.Kind == Struct {
		c.Fills = DefaultFills(src)
	}
	return c
}
