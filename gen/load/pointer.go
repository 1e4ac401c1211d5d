package load

import (
	"strings"

	"github.com/acpgen/acpgen/gen/diag"
)

// jsonPath is a JSON pointer built one step at a time, each step pointing
// to the one before it, and written out only when a problem is reported:
// building every pointer of a walk as a string would cost the square of
// the nesting depth.
type jsonPath struct {
	up  *jsonPath
	tok string // not escaped
}

// child returns the path one step below p, into the member or index tok.
func (p *jsonPath) child(tok string) *jsonPath {
	return &jsonPath{up: p, tok: tok}
}

// String returns the pointer as RFC 6901 writes it ("/$defs/A~1B"); the nil
// path is the whole document, "".
func (p *jsonPath) String() string {
	var toks []string
	size := 0
	for q := p; q != nil; q = q.up {
		toks = append(toks, diag.EscapePointer(q.tok))
		size += 1 + len(toks[len(toks)-1])
	}
	var b strings.Builder
	b.Grow(size)
	for i := len(toks) - 1; i >= 0; i-- {
		b.WriteByte('/')
		b.WriteString(toks[i])
	}
	return b.String()
}
