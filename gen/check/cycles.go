package check

import (
	"strings"

	"github.com/acpgen/acpgen/gen/ir"
)

// edge is one way a type holds another by value: through a required,
// non-nullable property (a struct field that is no pointer), a property
// whose null means something (Nullable[T] holds a T), or a definition that
// is another name for a type.
type edge struct {
	to    *ir.Type
	field *ir.Field // nil for a defined type's underlying type
}

func valueEdges(t *ir.Type) []edge {
	var out []edge
	switch t.Kind {
	case ir.Named:
		if t.Underlying.Kind == ir.RefNamed {
			out = append(out, edge{to: t.Underlying.Type})
		}
	case ir.Struct, ir.Union:
		for _, f := range t.Fields {
			byValue := (f.Required && !f.Nullable) || f.NullMeans
			if byValue && f.Type.Kind == ir.RefNamed && holdsValues(f.Type.Type) {
				out = append(out, edge{to: f.Type.Type, field: f})
			}
		}
	}
	return out
}

// holdsValues reports whether a value of t can contain other types by value.
func holdsValues(t *ir.Type) bool {
	return t.Kind == ir.Struct || t.Kind == ir.Union || t.Kind == ir.Named
}

// cycles reports every type that contains itself by value: Go has no such
// type. Each cycle is reported at the property (or definition) that closes it.
func (c *checker) cycles() {
	const (
		white = iota
		grey
		black
	)
	color := map[*ir.Type]int{}
	type frame struct {
		t    *ir.Type
		via  *ir.Field
		next int
	}
	for _, root := range c.p.Types {
		if color[root] != white {
			continue
		}
		stack := []frame{{t: root}}
		color[root] = grey
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			edges := valueEdges(top.t)
			if top.next == len(edges) {
				color[top.t] = black
				stack = stack[:len(stack)-1]
				continue
			}
			e := edges[top.next]
			top.next++
			switch color[e.to] {
			case white:
				color[e.to] = grey
				stack = append(stack, frame{t: e.to, via: e.field})
			case grey:
				// Back to a type on the stack: the frames from it on, and
				// this edge, are the cycle.
				start := len(stack) - 1
				for stack[start].t != e.to {
					start--
				}
				var b strings.Builder
				b.WriteString(e.to.Name)
				allNamed := true
				for k := start; k < len(stack); k++ {
					via, next := e.field, e.to
					if k+1 < len(stack) {
						via, next = stack[k+1].via, stack[k+1].t
					}
					if via != nil {
						allNamed = false
						b.WriteString("." + via.JSONName + " → " + next.Name)
					} else {
						b.WriteString(" = " + next.Name)
					}
				}
				at, g := top.t.Pointer, top.t.Gate
				if e.field != nil {
					at, g = e.field.Pointer, e.field.Gate
				}
				if allNamed {
					c.errorf(g, at, "%s is defined as itself (%s); Go has no such type", e.to.Name, b.String())
				} else {
					c.errorf(g, at, "%s contains itself by value (%s); Go has no such type: make one of these properties optional or nullable", e.to.Name, b.String())
				}
			}
		}
	}
}
