package names

import (
	"fmt"
	"regexp"
	"strings"
)

// The doc step: schema descriptions are markdown; Go doc comments have their
// own small syntax (go.dev/doc/comment). goDoc converts the first to the
// second and Lead (lead.go) makes a comment begin with a sentence about its
// identifier. Both are pure functions of their arguments.

var (
	listItem  = regexp.MustCompile(`^\s*([-*]|\d+[.)])\s+(.*)$`)
	mdLink    = regexp.MustCompile(`\[([^\[\]]+)\]\(([^()\s]+)\)`)
	codeSpan  = regexp.MustCompile("`([^`]+)`")
	bold      = regexp.MustCompile(`\*\*([^*]+)\*\*`)
	heading   = regexp.MustCompile(`^#{1,6}\s+(.*)$`)
	unstable  = "**UNSTABLE**"
	deprecate = regexp.MustCompile(`(?i)^\**deprecated\**[:.]?\s*`)
)

// goDoc converts a schema description from markdown to Go doc comment text:
// lists become Go doc lists, fenced code becomes indented code blocks, links
// become doc links with their targets listed at the end, a code span naming
// a definition becomes a link to its Go identifier (ident returns it),
// other code spans are quoted, bold markers go, a paragraph beginning with
// "Deprecated" becomes a "Deprecated:" paragraph, and the "**UNSTABLE**"
// banner becomes a sentence after the first paragraph.
func goDoc(md string, ident func(string) (string, bool)) string {
	md = strings.TrimSpace(strings.ReplaceAll(md, "\r\n", "\n"))
	if md == "" {
		return ""
	}
	w := &docWriter{ident: ident, seenDef: map[string]bool{}}
	for _, line := range strings.Split(md, "\n") {
		w.line(strings.TrimRight(line, " \t"))
	}
	paras := moveUnstable(paragraphs(strings.Join(w.out, "\n")))
	for i, p := range paras {
		if deprecate.MatchString(p) && !strings.HasPrefix(p, "\t") {
			paras[i] = "Deprecated: " + deprecate.ReplaceAllString(p, "")
		}
	}
	text := strings.Join(paras, "\n\n")
	if len(w.defs) > 0 {
		text += "\n\n" + strings.Join(w.defs, "\n")
	}
	return text
}

// docWriter converts markdown to Go doc text a line at a time.
type docWriter struct {
	ident   func(string) (string, bool)
	out     []string        // the lines written
	defs    []string        // the link targets, "[text]: url"
	seenDef map[string]bool // the texts of defs, lower-cased
	// inCode: inside a fenced code block; inList: inside a list.
	inCode, inList bool
}

// line converts one markdown line: a code fence, a line of code, a blank
// line, a list item or its continuation, a heading, or text.
func (w *docWriter) line(line string) {
	trimmed := strings.TrimSpace(line)
	switch {
	case strings.HasPrefix(trimmed, "```"):
		if !w.inCode {
			w.breakParagraph()
		}
		w.inCode, w.inList = !w.inCode, false
		if !w.inCode {
			w.out = append(w.out, "")
		}
	case w.inCode:
		w.out = append(w.out, "\t"+line)
	case trimmed == "":
		w.inList = false
		w.out = append(w.out, "")
	case listItem.MatchString(line):
		m := listItem.FindStringSubmatch(line)
		if !w.inList {
			w.breakParagraph()
		}
		w.inList = true
		w.out = append(w.out, "  "+listMarker(m[1])+" "+w.inline(m[2]))
	case w.inList && (line[0] == ' ' || line[0] == '\t'):
		w.out = append(w.out, "    "+w.inline(trimmed))
	case heading.MatchString(trimmed):
		w.breakParagraph()
		w.inList = false
		w.out = append(w.out, w.inline(heading.FindStringSubmatch(trimmed)[1]), "")
	default:
		if w.inList {
			w.out = append(w.out, "")
			w.inList = false
		}
		w.out = append(w.out, w.inline(trimmed))
	}
}

// breakParagraph ends the paragraph being written, if one is.
func (w *docWriter) breakParagraph() {
	if len(w.out) > 0 && w.out[len(w.out)-1] != "" {
		w.out = append(w.out, "")
	}
}

// listMarker is the Go doc marker of a markdown list item's: "-" for a
// bullet, "1." for "1." or "1)".
func listMarker(md string) string {
	if md == "-" || md == "*" {
		return "-"
	}
	marker := strings.TrimSuffix(md, ")")
	if !strings.HasSuffix(marker, ".") {
		marker += "."
	}
	return marker
}

// inline converts the inline markdown of s: links become doc links with
// their targets kept for the end, code spans links to a definition or
// quoted code, and bold markers go.
func (w *docWriter) inline(s string) string {
	s = mdLink.ReplaceAllStringFunc(s, func(m string) string {
		p := mdLink.FindStringSubmatch(m)
		text := strings.Trim(p[1], "`*")
		if !w.seenDef[strings.ToLower(text)] {
			w.seenDef[strings.ToLower(text)] = true
			w.defs = append(w.defs, fmt.Sprintf("[%s]: %s", text, p[2]))
		}
		return "[" + text + "]"
	})
	s = codeSpan.ReplaceAllStringFunc(s, func(m string) string {
		code := m[1 : len(m)-1]
		if id, ok := w.ident(code); ok {
			return "[" + id + "]"
		}
		if strings.ContainsRune(code, '"') {
			return code
		}
		return `"` + code + `"`
	})
	return bold.ReplaceAllString(s, "$1")
}

// paragraphs splits text at blank lines, dropping empty ones.
func paragraphs(text string) []string {
	var out []string
	for _, p := range strings.Split(text, "\n\n") {
		if p = strings.Trim(p, "\n"); strings.TrimSpace(p) != "" {
			out = append(out, p)
		}
	}
	return out
}

// moveUnstable turns a leading UNSTABLE banner and its note into one
// sentence after the first paragraph of the description proper.
func moveUnstable(paras []string) []string {
	if len(paras) == 0 || paras[0] != strings.Trim(unstable, "*") {
		return paras
	}
	note := "Unstable: this item is not part of the protocol yet and may change or be removed."
	rest := paras[1:]
	if len(rest) > 0 && strings.HasPrefix(rest[0], "This capability is not part of the spec yet") {
		rest = rest[1:]
	}
	if len(rest) == 0 {
		return []string{note}
	}
	return append([]string{rest[0], note}, rest[1:]...)
}
