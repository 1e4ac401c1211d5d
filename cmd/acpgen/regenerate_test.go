package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/acpgen/acpgen/gen/write"
	"github.com/acpgen/acpgen/internal/revisions"
)

// TestGoGenerateRevisions regenerates a downstream package with go generate
// from one published schema revision, then an older one that lacks the
// turn runtime (files go away), then the newer one again (files come back),
// as docs/generator.md sets it up: the go:generate line in generate.go of
// the generated package. go generate reads every file of the package after
// the line has run, so a file the older revision no longer produces is left
// as an empty placeholder; the package builds and -check passes at each
// step, and a run outside go generate removes the placeholders.
func TestGoGenerateRevisions(t *testing.T) {
	m := newUserModule(t)
	layouts, err := revisions.Load()
	if err != nil {
		t.Fatal(err)
	}
	schemaOf := func(v string) {
		t.Helper()
		l, ok := revisions.Find(layouts, v)
		if !ok {
			t.Fatalf("the corpus has no %s", v)
		}
		if err := os.RemoveAll(filepath.Join(m.dir, "acpschema")); err != nil {
			t.Fatal(err)
		}
		for name, f := range l.FS {
			m.write("acpschema/"+name, string(f.Data))
		}
	}
	args := []string{"-schema", "../../acpschema", "-version", "v2", "-package", "acp", "-out", "."}
	m.write("internal/acp/generate.go", "package acp\n\n//go:generate go tool acpgen "+strings.Join(args, " ")+"\n")
	m.write("main.go", "package main\n\nimport \"example.com/user/internal/acp\"\n\nvar _ acp.SessionID\n\nfunc main() {}\n")
	files := func() (real, placeholders []string) {
		t.Helper()
		names, err := filepath.Glob(filepath.Join(m.dir, "internal", "acp", "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range names {
			b, err := os.ReadFile(n)
			if err != nil {
				t.Fatal(err)
			}
			if write.IsPlaceholder(b) {
				placeholders = append(placeholders, filepath.Base(n))
			} else {
				real = append(real, filepath.Base(n))
			}
		}
		return real, placeholders
	}
	regenerate := func(v string) (real, placeholders []string) {
		t.Helper()
		schemaOf(v)
		m.run("generate", "./...")
		m.run("build", "./...")
		m.runIn("internal/acp", append([]string{"tool", "acpgen", "-check"}, args...)...)
		return files()
	}
	m.run("mod", "tidy")
	schemaOf("2.4.0")
	m.run("generate", "./...")
	m.run("mod", "tidy")
	newer, none := regenerate("2.4.0")
	if len(none) > 0 || !slices.Contains(newer, "turn.go") || !slices.Contains(newer, "generate.go") {
		t.Fatalf("2.4.0: files %v, placeholders %v", newer, none)
	}
	older, kept := regenerate("2.2.0")
	if len(kept) == 0 || slices.Contains(older, "turn.go") || !slices.Contains(kept, "turn.go") || !slices.Contains(older, "generate.go") {
		t.Fatalf("2.2.0 under go generate: files %v, placeholders %v", older, kept)
	}
	for _, p := range kept {
		if slices.Contains(older, p) {
			t.Errorf("%s is both generated and a placeholder", p)
		}
	}
	m.run("vet", "-tags", "unstable", "./...")
	// acpgen run by hand removes the placeholders.
	m.runIn("internal/acp", append([]string{"tool", "acpgen"}, args...)...)
	if real, left := files(); len(left) > 0 || !slices.Equal(real, older) {
		t.Errorf("after a run outside go generate: files %v (want %v), placeholders %v", real, older, left)
	}
	again, none := regenerate("2.4.0")
	if len(none) > 0 || !slices.Equal(again, newer) {
		t.Fatalf("back to 2.4.0: files %v (want %v), placeholders %v", again, newer, none)
	}
	m.run("vet", "-tags", "unstable", "./...")
}
