package names

import (
	"strconv"
	"strings"
	"unicode"

	"github.com/acpgen/acpgen/gen/ir"
)

// Inline types are named after the way to them: their definition, then each
// property, list item or union branch on the way (SessionUpdateContent,
// ToolCallLocationsItem). Nested deep, such a name grows with the depth, and
// as each type's name is written in its methods the output would grow with
// the square of the depth. So an inline type whose schema name is longer
// than maxInlineName characters is named instead after its definition and
// the nearest steps of the way to it (at most nearSteps of them and
// nearChars characters; of a longer step, its last words), followed by a number that counts the types so
// named with the same beginning, in the order of their schema names, and
// skips the names other types have: inline objects nested more than 60
// levels under Root's property "a" are RootAAA1, RootAAA2, … The schema
// names of the published ACP schemas have at most 40 characters.
const maxInlineName = 64

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

// typeName returns the Go name of a type that long does not report: its
// schema name with a repeat written once (destutter). An inline type's
// repeat is folded only where its own step repeats the words before it: a
// repeat of several steps (a tree whose nodes hold their children:
// RootChildrenItemChildrenItem) stays, as folding it would give a deeper
// type the name of a shallower one.
func typeName(t *ir.Type) string {
	full := exported(t.Name)
	if t.Parent == nil {
		return destutter(full)
	}
	w, k := words(full), len(words(exported(t.Member)))
	if k == 0 || 2*k > len(w) || !equalWords(w[len(w)-2*k:len(w)-k], w[len(w)-k:]) {
		return full
	}
	return strings.Join(w[:len(w)-k], "") + stutterWord
}

// long reports whether t is an inline type that the rule names.
func long(t *ir.Type) bool {
	return t.Parent != nil && len(t.Name) > maxInlineName
}

// shortName returns the Go name of the inline type t, which long reports:
// the first count for its beginning that taken does not report.
func (n *inlineNamer) shortName(t *ir.Type, taken func(string) bool) string {
	if n.roots == nil {
		n.roots, n.count = map[*ir.Type]*ir.Type{}, map[string]int{}
	}
	var near string
	for p, steps := t, 0; p.Parent != nil && steps < nearSteps; p, steps = p.Parent, steps+1 {
		if len(near)+len(p.Member) > nearChars {
			near = lastWords(p.Member, nearChars-len(near)) + near
			break
		}
		near = p.Member + near
	}
	base := destutter(exported(n.root(t).Name)) + exported(near)
	if r := []rune(base); len(r) > 0 && unicode.IsDigit(r[len(r)-1]) {
		base += "N" // keeps the count apart from a step ending in a digit
	}
	for {
		n.count[base]++
		if name := base + strconv.Itoa(n.count[base]); !taken(name) {
			return name
		}
	}
}

// lastWords returns the longest run of s's last words that has at most
// room characters: a step that lists 3,000 levels of a list of lists
// (AItemItem…Item) gives ItemItem….
func lastWords(s string, room int) string {
	w := words(s)
	i := len(w)
	for i > 0 && len(w[i-1]) <= room {
		room -= len(w[i-1])
		i--
	}
	return strings.Join(w[i:], "")
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
