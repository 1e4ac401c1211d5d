// Package names decides every Go identifier the generator emits: one
// initialisms table, one word splitter, one place that resolves collisions.
// Changing anything here changes the generated public API.
package names

import (
	"go/token"
	"strings"
	"unicode"
)

// initialisms are words written in all capitals in Go names.
var initialisms = map[string]bool{
	"ACP": true, "API": true, "ASCII": true, "CPU": true, "CSS": true, "DNS": true, "EOF": true,
	"HTML": true, "HTTP": true, "HTTPS": true, "ID": true, "IP": true, "JSON": true, "LLM": true,
	"MCP": true, "NES": true, "RPC": true, "SQL": true, "SSE": true, "SSH": true, "TCP": true,
	"TLS": true, "TTL": true, "UI": true, "URI": true, "URL": true, "UTF8": true, "UUID": true,
	"XML": true,
}

// exported returns the exported Go identifier for a schema name in any
// spelling: camelCase, PascalCase, snake_case, kebab-case, a path ("session/update")
// or a phrase ("Parse error"). It returns "" when s has no letters or digits.
func exported(s string) string {
	var b strings.Builder
	for _, w := range words(s) {
		if up := strings.ToUpper(w); initialisms[up] {
			b.WriteString(up)
			continue
		}
		r := []rune(w)
		b.WriteRune(unicode.ToUpper(r[0]))
		b.WriteString(string(r[1:]))
	}
	out := b.String()
	if out != "" && unicode.IsDigit([]rune(out)[0]) {
		out = "N" + out
	}
	return out
}

// words splits s at non-alphanumeric characters and at case changes:
// "McpServerHTTPConfig" → Mcp Server HTTP Config; "in_progress" → in progress.
func words(s string) []string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, string(cur))
			cur = cur[:0]
		}
	}
	rs := []rune(s)
	for i, r := range rs {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			flush()
			continue
		}
		if len(cur) > 0 && unicode.IsUpper(r) {
			prev := cur[len(cur)-1]
			nextLower := i+1 < len(rs) && unicode.IsLower(rs[i+1])
			if unicode.IsLower(prev) || unicode.IsDigit(prev) || (unicode.IsUpper(prev) && nextLower) {
				flush()
			}
		}
		cur = append(cur, r)
	}
	flush()
	return words
}

// unexported returns a lower-case Go identifier for s, escaping keywords.
func unexported(s string) string {
	e := exported(s)
	if e == "" {
		return e
	}
	words := words(e)
	first := words[0]
	if initialisms[strings.ToUpper(first)] {
		e = strings.ToLower(first) + e[len(first):]
	} else {
		r := []rune(e)
		r[0] = unicode.ToLower(r[0])
		e = string(r)
	}
	return escape(e)
}

// escape makes a Go keyword usable as an identifier by appending "_".
func escape(s string) string {
	if token.IsKeyword(s) {
		return s + "_"
	}
	return s
}

// valid reports whether s can be used as an exported Go identifier.
func valid(s string) bool {
	return token.IsIdentifier(s) && token.IsExported(s)
}
