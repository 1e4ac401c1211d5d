// Package irtest builds checked and named IR packages for the tests of the
// stages after naming (emit, write).
package irtest

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/acpgen/acpgen/gen/check"
	"github.com/acpgen/acpgen/gen/diag"
	"github.com/acpgen/acpgen/gen/ir"
	"github.com/acpgen/acpgen/gen/load"
	"github.com/acpgen/acpgen/gen/names"
)

// Tiny returns the package of the small schema the ir tests use
// (gen/ir/testdata/tiny.json), built, checked and named, ready to emit.
func Tiny(t testing.TB) *ir.Package {
	t.Helper()
	_, here, _, _ := runtime.Caller(0)
	path := filepath.Join(filepath.Dir(here), "..", "..", "gen", "ir", "testdata", "tiny.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := load.Parse("tiny.json", data)
	if err != nil {
		t.Fatal(err)
	}
	p, err := ir.Build(f, ir.Options{Name: "tiny", Version: "v1", Source: "tiny.json"})
	if err != nil {
		t.Fatal(err)
	}
	if err := diag.Join(check.Package(p), names.Assign(p)); err != nil {
		t.Fatal(err)
	}
	return p
}
