package api

import (
	"fmt"
	"io"
	"sort"
	"strings"
)

// kindsOrder is the order of the kinds of items in a summary.
var kindsOrder = []string{"version", "runtime", "type", "field", "variant", "value", "method", "request", "notification", "func", "const", "var"}

// tagCounts counts items by build tags ("" for stable), then by what
// happened to them ("added", "removed", "changed"; "" for the lines of a
// surface), then by kind.
type tagCounts map[string]map[string]map[string]int

func (c tagCounts) add(tags, op, kind string) {
	if c[tags] == nil {
		c[tags] = map[string]map[string]int{}
	}
	if c[tags][op] == nil {
		c[tags][op] = map[string]int{}
	}
	c[tags][op][kind]++
}

// write prints one line per build tags, stable first: "  [tags] 3 types,
// 2 fields added; 1 variant removed".
func (c tagCounts) write(b *strings.Builder, indent string) {
	var tags []string
	for t := range c {
		tags = append(tags, t)
	}
	sort.Strings(tags)
	for _, t := range tags {
		name := t
		if name == "" {
			name = "stable"
		}
		var parts []string
		for _, op := range []string{"", "added", "removed", "changed"} {
			counts := c[t][op]
			if counts == nil {
				continue
			}
			var items []string
			for _, k := range kindsOrder {
				if n := counts[k]; n > 0 {
					items = append(items, plural(n, k))
				}
			}
			part := strings.Join(items, ", ")
			if op != "" {
				part += " " + op
			}
			parts = append(parts, part)
		}
		fmt.Fprintf(b, "%s[%s] %s\n", indent, name, strings.Join(parts, "; "))
	}
}

// plural is "1 type", "2 types".
func plural(n int, kind string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", kind)
	}
	return fmt.Sprintf("%d %ss", n, kind)
}

// lineKind is the kind of item a surface line declares: "pkg p, type T
// struct" is a type, "pkg p, type T struct, F int" a field.
func lineKind(text string) string {
	_, rest, ok := strings.Cut(text, ", ")
	if !ok {
		return "other"
	}
	word, decl, _ := strings.Cut(rest, " ")
	if word == "type" && strings.Contains(decl, ", ") {
		return "field"
	}
	return word
}

// WriteSurfaceSummary prints, after the lines of an unstable surface, what
// each build tag adds, by kind of item; a package without unstable surface
// says so.
func WriteSurfaceSummary(w io.Writer, changes []lineChange) error {
	if len(changes) == 0 {
		_, err := fmt.Fprintln(w, "no unstable surface: no build tag adds anything to this package")
		return err
	}
	c := tagCounts{}
	for _, ch := range changes {
		c.add(strings.Join(ch.Line.Features, ","), "", lineKind(ch.Line.Text))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n%d lines; what each build tag adds:\n", len(changes))
	c.write(&b, "  ")
	_, err := io.WriteString(w, b.String())
	return err
}

// findingsSummary counts the items that changed, per version and build
// tags: each item once, whatever the classes of its findings.
func findingsSummary(fs []Finding) string {
	byVersion := map[string]tagCounts{}
	var versions []string
	seen := map[string]bool{}
	for _, f := range fs {
		words := strings.Fields(f.Change)
		if len(words) < 2 {
			continue
		}
		kind, key := words[0], f.Version+" "+words[0]+" "+strings.TrimSuffix(words[1], ":")
		op := "changed"
		switch {
		case len(words) > 2 && strings.HasPrefix(words[2], "added"):
			op = "added"
		case len(words) > 2 && strings.HasPrefix(words[2], "removed"):
			op = "removed"
		}
		if seen[key] {
			continue
		}
		seen[key] = true
		if byVersion[f.Version] == nil {
			byVersion[f.Version] = tagCounts{}
			versions = append(versions, f.Version)
		}
		byVersion[f.Version].add(tagKey(f), op, kind)
	}
	var b strings.Builder
	b.WriteString("\nsummary, per build tag:\n")
	for _, v := range versions {
		fmt.Fprintf(&b, "  %s:\n", v)
		byVersion[v].write(&b, "    ")
	}
	return b.String()
}
