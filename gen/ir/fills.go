package ir

// Fill is an optional member whose schema default is an object
// ("capabilities": {"default": {}}): the value a constructor returns holds
// an empty one, with its own such members filled in turn, so that setting
// a member of it never goes through a nil pointer. On the wire it is the
// default the schema gives ("capabilities": {}), which readers take as they
// take an absent member.
type Fill struct {
	Field *Field
	Type  *Type // the struct type the member points to
	Fills []*Fill
}

// maxFillDepth bounds the filling of nested defaults, so that a schema
// whose defaults refer to themselves cannot make a constructor endless.
const maxFillDepth = 8

// DefaultFills returns the members of the struct src that a constructor of
// src fills: optional members declared with src (not added by build tags
// to a stable type, which a composite literal cannot name in every build),
// of a struct type, whose schema default is an object. It marks the
// structs it fills Defaulted.
func DefaultFills(src *Type) []*Fill {
	return defaultFills(src, 0)
}

func defaultFills(src *Type, depth int) []*Fill {
	if depth >= maxFillDepth {
		return nil
	}
	for src.Kind == Named && src.Underlying.Kind == RefNamed {
		src = src.Underlying.Type
	}
	if src.Kind != Struct {
		return nil
	}
	var out []*Fill
	for _, f := range src.Fields {
		if !f.DefaultObject || f.Required || f.NullMeans || f.Type.Kind != RefNamed {
			continue
		}
		if f.Unstable && !(src.Unstable && f.Key() == src.Key()) {
			continue
		}
		t := f.Type.Type
		for t.Kind == Named && t.Underlying.Kind == RefNamed {
			t = t.Underlying.Type
		}
		if t.Kind != Struct {
			continue
		}
		t.Defaulted = true
		out = append(out, &Fill{Field: f, Type: f.Type.Type, Fills: defaultFills(t, depth+1)})
	}
	return out
}
