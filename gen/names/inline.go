package names

import (
	"strconv"
	"unicode"

	"github.com/acpgen/acpgen/gen/ir"
)

// Inline types are named after the way to them: their definition, then each
// property, list item or union branch on the way (SessionUpdateContent,
// ToolCallLocationsItem). Nested deep, such a name grows with the depth, and
// as each type's name is written in its methods the output would grow with
// the square of the depth. So an inline type whose schema name is longer
// than MaxInlineName characters is named instead after its definition and
// the nearest steps of the way to it (at most nearSteps of them and
// nearChars characters), followed by a number that counts the types so
// named with the same beginning, in the order of their schema names:
// inline objects 70 levels deep under Root's property "a" are RootAAA1,
// RootAAA2, … No name that acpgen gives a published ACP schema comes near
// the limit (the longest is 42 characters).
const MaxInlineName = 64

const (
	nearSteps = 3
	nearChars = 24
)

// inlineNamer names the inline types with long schema names; it remembers
// the definition each inline type belongs to, so that naming every type
// takes time linear in the number of types.
type inlineNamer struct {
	roots map[*ir.Type]*ir.Type
	count map[string]int
}

// typeName returns the Go name of t before collisions are looked at.
func (n *inlineNamer) typeName(t *ir.Type) string {
	if t.Parent == nil || len(t.Name) <= MaxInlineName {
		return Destutter(Exported(t.Name))
	}
	if n.roots == nil {
		n.roots, n.count = map[*ir.Type]*ir.Type{}, map[string]int{}
	}
	var near string
	steps := 0
	for p := t; p.Parent != nil && steps < nearSteps && len(near)+len(p.Member) <= nearChars; p = p.Parent {
		near = p.Member + near
		steps++
	}
	base := Destutter(Exported(n.root(t).Name)) + Exported(near)
	if r := []rune(base); len(r) > 0 && unicode.IsDigit(r[len(r)-1]) {
		base += "N" // keeps the count apart from a step ending in a digit
	}
	n.count[base]++
	return base + strconv.Itoa(n.count[base])
}

// root returns the definition t is an inline type of.
func (n *inlineNamer) root(t *ir.Type) *ir.Type {
	if t.Parent == nil {
		return t
	}
	if r, ok := n.roots[t]; ok {
		return r
	}
	r := n.root(t.Parent)
	n.roots[t] = r
	return r
}
