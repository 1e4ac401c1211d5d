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
	var out []string
	var defs []string
	seenDef := map[string]bool{}
	inline := func(s string) string {
		s = mdLink.ReplaceAllStringFunc(s, func(m string) string {
			p := mdLink.FindStringSubmatch(m)
			text := strings.Trim(p[1], "`*")
			if !seenDef[strings.ToLower(text)] {
				seenDef[strings.ToLower(text)] = true
				defs = append(defs, fmt.Sprintf("[%s]: %s", text, p[2]))
			}
			return "[" + text + "]"
		})
		s = codeSpan.ReplaceAllStringFunc(s, func(m string) string {
			code := m[1 : len(m)-1]
			if id, ok := ident(code); ok {
				return "[" + id + "]"
			}
			if strings.ContainsRune(code, '"') {
				return code
			}
			return `"` + code + `"`
		})
		return bold.ReplaceAllString(s, "$1")
	}
	lines := strings.Split(md, "\n")
	inCode, inList := false, false
	for _, line := range lines {
		line = strings.TrimRight(line, " \t")
		trimmed := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(trimmed, "```"):
			if !inCode && len(out) > 0 && out[len(out)-1] != "" {
				out = append(out, "")
			}
			inCode, inList = !inCode, false
			if !inCode {
				out = append(out, "")
			}
		case inCode:
			out = append(out, "\t"+line)
		case trimmed == "":
			inList = false
			out = append(out, "")
		case listItem.MatchString(line):
			m := listItem.FindStringSubmatch(line)
			if !inList && len(out) > 0 && out[len(out)-1] != "" {
				out = append(out, "")
			}
			marker := "-"
			if m[1] != "-" && m[1] != "*" {
				marker = strings.TrimSuffix(m[1], ")")
				if !strings.HasSuffix(marker, ".") {
					marker += "."
				}
			}
			inList = true
			out = append(out, "  "+marker+" "+inline(m[2]))
		case inList && (line[0] == ' ' || line[0] == '\t'):
			out = append(out, "    "+inline(trimmed))
		case heading.MatchString(trimmed):
			if len(out) > 0 && out[len(out)-1] != "" {
				out = append(out, "")
			}
			inList = false
			out = append(out, inline(heading.FindStringSubmatch(trimmed)[1]), "")
		default:
			if inList {
				out = append(out, "")
				inList = false
			}
			out = append(out, inline(trimmed))
		}
	}
	paras := paragraphs(strings.Join(out, "\n"))
	paras = moveUnstable(paras)
	for i, p := range paras {
		if deprecate.MatchString(p) && !strings.HasPrefix(p, "\t") {
			paras[i] = "Deprecated: " + deprecate.ReplaceAllString(p, "")
		}
	}
	text := strings.Join(paras, "\n\n")
	if len(defs) > 0 {
		text += "\n\n" + strings.Join(defs, "\n")
	}
	return text
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
