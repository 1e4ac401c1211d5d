package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acpgen/acpgen/gen/api"
	"github.com/acpgen/acpgen/gen/pipeline"
	"github.com/acpgen/acpgen/gen/write"
	"github.com/acpgen/acpgen/templates"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

func golden(t *testing.T, name string, got []byte) { t.Helper(); goldenIn(t, "diff", name, got) }

// goldenIn compares got with testdata/dir/name, or with -update writes it.
func goldenIn(t *testing.T, dir, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", dir, name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./cmd/acpgen -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs:\n got:\n%s\nwant:\n%s", path, got, want)
	}
}

func TestDiffRevisions(t *testing.T) {
	if testing.Short() {
		t.Skip("loads packages with the go command")
	}
	for _, tc := range []struct {
		args   []string
		golden string
	}{
		{[]string{"testdata/diff/old", "testdata/diff/new"}, "revisions.golden"},
		{[]string{"-json", "testdata/diff/old", "testdata/diff/new"}, "revisions.json.golden"},
	} {
		var out bytes.Buffer
		if err := diff(tc.args, &out); err != nil {
			t.Fatal(err)
		}
		golden(t, tc.golden, out.Bytes())
	}
	var out bytes.Buffer
	err := diff([]string{"-exit-code", "testdata/diff/old", "testdata/diff/old"}, &out)
	if err != nil || !strings.HasPrefix(out.String(), "no changes: both schema directories give the same Go API") {
		t.Errorf("a revision against itself: err %v, output %q; want no changes", err, out.String())
	}
	if err := diff([]string{"-exit-code", "testdata/diff/old", "testdata/diff/new"}, &out); err != exitCode(1) {
		t.Errorf("-exit-code with differences: err %v, want exit status 1", err)
	}
}

func TestDiffUnstable(t *testing.T) {
	if testing.Short() {
		t.Skip("loads packages with the go command")
	}
	gen, err := pipeline.Generate(os.DirFS("testdata/diff/new"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	gomod, gosum := templates.Module("acpgen.example/difftest", "1.22")
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), gomod, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.sum"), gosum, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := write.Write(dir, gen.Files); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := diff([]string{filepath.Join(dir, "acpv1")}, &out); err != nil {
		t.Fatal(err)
	}
	golden(t, "unstable.golden", out.Bytes())
}

// TestDiffPromotedMethod: the surface lists the methods a type promotes
// from an unexported embedded one, as go doc shows them, so that diff
// reports one that a build tag adds (testdata/promoted: Conn embeds conn,
// whose Extra comes with unstable_extra); an alias reads as the type it
// stands for, and a method promoted from an exported type is left to it.
func TestDiffPromotedMethod(t *testing.T) {
	if testing.Short() {
		t.Skip("loads packages with the go command")
	}
	var out bytes.Buffer
	if err := diff([]string{"testdata/promoted"}, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "+ pkg promoted, method (Conn) Extra() error #unstable_extra") {
		t.Errorf("diff does not report Extra, which unstable_extra adds to Conn through conn:\n%s", out.String())
	}
	lines, err := api.Tagged("testdata/promoted")
	if err != nil {
		t.Fatal(err)
	}
	var surface []string
	for _, l := range lines {
		surface = append(surface, l.String())
	}
	all := strings.Join(surface, "\n")
	for _, want := range []string{
		"pkg promoted, method (Conn) Close() error",
		"pkg promoted, method (Conn) Extra() error #unstable_extra",
		"pkg promoted, type Raw = json.RawMessage",
		"pkg promoted, method (Peer) Hello()",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("surface lacks %q:\n%s", want, all)
		}
	}
	if strings.Contains(all, "method (Pair) Hello") {
		t.Errorf("Hello listed on Pair, which embeds the exported Peer:\n%s", all)
	}
}
