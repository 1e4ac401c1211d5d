package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// docBlock is one ```go block of a Markdown file.
type docBlock struct {
	file string // the Markdown file, relative to the repository root
	line int    // the line of the block's first line of code
	code string
	tags []string // the tags of its //go:build line
}

// docFiles returns README.md and the pages of docs/, relative to this
// directory.
func docFiles(t *testing.T) []string {
	t.Helper()
	pages, err := filepath.Glob("../../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) == 0 {
		t.Fatal("no page in docs/")
	}
	return append([]string{readme}, pages...)
}

// goBlocks returns the ```go blocks of the Markdown file at path.
func goBlocks(t *testing.T, path string) []docBlock {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var blocks []docBlock
	lines := strings.SplitAfter(string(data), "\n")
	for i := 0; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) != "```go" {
			continue
		}
		start := i + 1
		var code strings.Builder
		for i++; i < len(lines) && strings.TrimSpace(lines[i]) != "```"; i++ {
			code.WriteString(lines[i])
		}
		if i == len(lines) {
			t.Fatalf("%s:%d: the Go block does not end", path, start)
		}
		b := docBlock{file: strings.TrimPrefix(path, "../../../"), line: start + 1, code: code.String()}
		if first, _, _ := strings.Cut(b.code, "\n"); strings.HasPrefix(first, "//go:build ") {
			b.tags = regexp.MustCompile(`[A-Za-z0-9_.]+`).FindAllString(strings.TrimPrefix(first, "//go:build "), -1)
		}
		blocks = append(blocks, b)
	}
	return blocks
}

var packageClause = regexp.MustCompile(`(?m)^package [A-Za-z_][A-Za-z0-9_]*$`)

// TestDocsGoBlocks compiles every ```go block of README.md and docs/*.md:
// each is a complete Go file, with its package clause after an optional
// //go:build line and comments, built with the tags of its //go:build
// line. The blocks become packages of this module in a build overlay, each
// renamed after its directory so that no program is linked, and one go
// build compiles all the blocks that share their tags.
func TestDocsGoBlocks(t *testing.T) {
	byTags := map[string][]docBlock{}
	n := 0
	for _, f := range docFiles(t) {
		for _, b := range goBlocks(t, f) {
			head := packageClause.FindStringIndex(b.code)
			if head == nil {
				t.Errorf("%s:%d: a Go block without a package clause: every Go block of the docs is a complete file", b.file, b.line)
				continue
			}
			for _, l := range strings.Split(b.code[:head[0]], "\n") {
				if l != "" && !strings.HasPrefix(l, "//") {
					t.Errorf("%s:%d: a Go block with %q before its package clause", b.file, b.line, l)
				}
			}
			key := strings.Join(b.tags, ",")
			byTags[key] = append(byTags[key], b)
			n++
		}
	}
	if n < 10 {
		t.Fatalf("%d Go blocks in the docs, want at least 10", n)
	}
	keys := make([]string, 0, len(byTags))
	for k := range byTags {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, tags := range keys {
		buildBlocks(t, tags, byTags[tags])
	}
}

// buildBlocks runs go build, with tags, on blocks, each the package
// ./docblocks/bN of a build overlay, and reports a failure at the line of
// the Markdown file it comes from.
func buildBlocks(t *testing.T, tags string, blocks []docBlock) {
	t.Helper()
	dir := t.TempDir()
	replace := map[string]string{}
	var pkgs []string
	where := map[string]docBlock{}
	for i, b := range blocks {
		name := fmt.Sprintf("b%d", i)
		abs, err := filepath.Abs(filepath.Join("docblocks", name, "main.go"))
		if err != nil {
			t.Fatal(err)
		}
		src := filepath.Join(dir, name+".go")
		// A package main is compiled as a package of its own name, which
		// go build checks without linking a program; the lines stay.
		code := packageClause.ReplaceAllLiteralString(b.code, "package "+name)
		if err := os.WriteFile(src, []byte(code), 0o644); err != nil {
			t.Fatal(err)
		}
		replace[abs] = src
		pkgs = append(pkgs, "./docblocks/"+name)
		where[name] = b
	}
	overlay, _ := json.Marshal(map[string]map[string]string{"Replace": replace})
	if err := os.WriteFile(filepath.Join(dir, "overlay.json"), overlay, 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"build", "-overlay", filepath.Join(dir, "overlay.json")}
	if tags != "" {
		args = append(args, "-tags", tags)
	}
	out, err := exec.Command("go", append(args, pkgs...)...).CombinedOutput()
	if err == nil {
		return
	}
	// Point each message at the Markdown line: bN.go:L:C becomes file:line.
	re := regexp.MustCompile(`(?:\S*/)?(b\d+)(?:/main)?\.go:(\d+)(:\d+)?`)
	msg := re.ReplaceAllStringFunc(string(out), func(m string) string {
		s := re.FindStringSubmatch(m)
		b, ok := where[s[1]]
		if !ok {
			return m
		}
		var l int
		fmt.Sscan(s[2], &l)
		return fmt.Sprintf("%s:%d", b.file, b.line+l-1)
	})
	t.Errorf("the Go blocks of the docs (tags %q) do not build: %v\n%s", tags, err, msg)
}

// TestDocsLinks checks that every relative link of README.md and
// docs/*.md names a file of the repository and, into a Markdown file, one
// of its headings.
func TestDocsLinks(t *testing.T) {
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	for _, f := range docFiles(t) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		text := stripCode(string(data))
		for _, m := range link.FindAllStringSubmatch(text, -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			path, anchor, _ := strings.Cut(target, "#")
			file := f
			if path != "" {
				file = filepath.Join(filepath.Dir(f), path)
			}
			if _, err := os.Stat(file); err != nil {
				t.Errorf("%s: the link %s names no file of the repository", strings.TrimPrefix(f, "../../../"), target)
				continue
			}
			if anchor == "" || !strings.HasSuffix(file, ".md") {
				continue
			}
			if !anchors(t, file)[anchor] {
				t.Errorf("%s: the link %s names no heading of %s", strings.TrimPrefix(f, "../../../"), target, strings.TrimPrefix(file, "../../../"))
			}
		}
	}
}

// stripCode removes the fenced code blocks of a Markdown text.
func stripCode(s string) string {
	var b strings.Builder
	in := false
	for _, l := range strings.SplitAfter(s, "\n") {
		if strings.HasPrefix(l, "```") {
			in = !in
			continue
		}
		if !in {
			b.WriteString(l)
		}
	}
	return b.String()
}

// anchors returns the anchors GitHub makes of the headings of a Markdown
// file: lower case, punctuation but hyphens and underscores dropped,
// spaces made hyphens.
func anchors(t *testing.T, path string) map[string]bool {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	set := map[string]bool{}
	for _, l := range strings.Split(stripCode(string(data)), "\n") {
		if !strings.HasPrefix(l, "#") {
			continue
		}
		h := strings.ToLower(strings.TrimSpace(strings.TrimLeft(l, "#")))
		var b strings.Builder
		for _, r := range h {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r > 127 && isLetter(r):
				b.WriteRune(r)
			}
		}
		set[b.String()] = true
	}
	return set
}

func isLetter(r rune) bool {
	return strings.ToLower(string(r)) != strings.ToUpper(string(r))
}

// TestReadmeIsAFrontPage keeps README.md a front page: at most 300 lines,
// the depth in docs/.
func TestReadmeIsAFrontPage(t *testing.T) {
	data, err := os.ReadFile(readme)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(data), "\n"); n > 300 {
		t.Errorf("README.md has %d lines, want at most 300: move the depth to a page of docs/", n)
	}
}
