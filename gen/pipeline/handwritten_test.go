package pipeline

import (
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acpgen/acpgen/schema"
)

// TestNoHandWrittenCode: every non-test Go file under generated/ is one
// that `make generate` writes (tests of the generated packages may sit
// beside them).
func TestNoHandWrittenCode(t *testing.T) {
	out, err := GenerateWith(schema.FS, makeGenerate)
	if err != nil {
		t.Fatal(err)
	}
	var n int
	err = filepath.WalkDir(generatedDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return err
		}
		n++
		rel, err := filepath.Rel(generatedDir, p)
		if err != nil {
			return err
		}
		if out.Files[filepath.ToSlash(rel)] == nil {
			t.Errorf("generated/%s is not generated: move hand-written code out of generated/", filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := 0
	for name := range out.Files {
		if strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") {
			want++
		}
	}
	if n < want {
		t.Errorf("%d non-test Go files under generated/, want at least the %d generated", n, want)
	}
}
