package emit_test

import (
	"flag"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/acpgen/acpgen/gen/emit"
	"github.com/acpgen/acpgen/internal/irtest"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

func TestGolden(t *testing.T) {
	p := irtest.Tiny(t)
	p.Tests = true // definitions_test.go too
	files, err := emit.Render("tiny", emit.Files(p))
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join("testdata", "golden")
	if *update {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	var names []string
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		got := files[name]
		if _, err := parser.ParseFile(token.NewFileSet(), name, got, 0); err != nil {
			t.Errorf("%s does not parse: %v", name, err)
		}
		golden := filepath.Join(dir, name+".golden")
		if *update {
			if err := os.WriteFile(golden, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (run go test ./gen/emit -update)", err)
		}
		if string(got) != string(want) {
			t.Errorf("%s differs from %s; inspect and run go test ./gen/emit -update", name, golden)
		}
	}
	goldens, _ := filepath.Glob(filepath.Join(dir, "*.golden"))
	if len(goldens) != len(files) {
		t.Errorf("%d golden files for %d generated files", len(goldens), len(files))
	}
}

// TestFilesStopEarly: a consumer may stop taking files; the first ones are
// the same as in a whole run, and the rest are not handed over.
func TestFilesStopEarly(t *testing.T) {
	p := irtest.Tiny(t)
	var all []string
	for f := range emit.Files(p) {
		all = append(all, f.Name)
	}
	var first []string
	for f := range emit.Files(p) {
		first = append(first, f.Name)
		if len(first) == 2 {
			break
		}
	}
	if len(all) < 3 || strings.Join(first, ",") != strings.Join(all[:2], ",") {
		t.Errorf("stopped after %v; a whole run gives %v", first, all)
	}
}
