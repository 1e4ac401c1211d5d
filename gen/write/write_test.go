package write

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const header = generatedPrefix + " from test. DO NOT EDIT.\n"

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	mustWrite(t, filepath.Join(dir, "pkg", "old.go"), header+"package pkg\n")
	mustWrite(t, filepath.Join(dir, "pkg", "keep_test.go"), "package pkg\n")
	mustWrite(t, filepath.Join(dir, "pkg", "same.go"), header+"package pkg // same\n")
	files := map[string][]byte{
		"pkg/same.go": []byte(header + "package pkg // same\n"),
		"pkg/new.go":  []byte(header + "package pkg // new\n"),
	}
	changes, err := Write(dir, files)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range changes {
		got = append(got, c.Path)
	}
	if strings.Join(got, " ") != "pkg/new.go pkg/old.go" {
		t.Errorf("changes %v, want the new file and the stale one", got)
	}
	if _, err := os.Stat(filepath.Join(dir, "pkg", "old.go")); !os.IsNotExist(err) {
		t.Error("stale generated file not removed")
	}
	if _, err := os.Stat(filepath.Join(dir, "pkg", "keep_test.go")); err != nil {
		t.Error("hand-written file removed")
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "pkg", "new.go")); string(b) != string(files["pkg/new.go"]) {
		t.Errorf("new.go = %q", b)
	}
	leftovers, _ := filepath.Glob(filepath.Join(dir, "pkg", ".acpgen-*"))
	if len(leftovers) > 0 {
		t.Errorf("temporary files left behind: %v", leftovers)
	}
	if changes, err := Changes(dir, files); err != nil || len(changes) != 0 {
		t.Errorf("after Write, Changes = %v, %v; want none", changes, err)
	}
}

func TestWriteRefusesHeaderless(t *testing.T) {
	dir := t.TempDir()
	if _, err := Write(dir, map[string][]byte{"p/a.go": []byte("package p\n")}); err == nil {
		t.Fatal("wrote a file without the generated header")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("refused write left %d entries", len(entries))
	}
}

func TestDiff(t *testing.T) {
	d := Diff([]Change{{Path: "p/a.go", Old: []byte("a\nb\nc\nd\n"), New: []byte("a\nB\nc\nd\ne\n")}})
	for _, want := range []string{"--- p/a.go (on disk)", "+++ p/a.go (generated)", "-b\n", "+B\n", " c\n", "+e\n"} {
		if !strings.Contains(d, want) {
			t.Errorf("diff lacks %q:\n%s", want, d)
		}
	}
	if strings.Contains(d, "-a\n") {
		t.Errorf("common prefix shown as removed:\n%s", d)
	}
	// A line added at the end leaves the last common line alone.
	d = Diff([]Change{{Path: "p/b.go", Old: []byte("x\ny\n"), New: []byte("x\ny\nz\n")}})
	if strings.Contains(d, "-y") || strings.Contains(d, "+y") || !strings.Contains(d, "+z\n") {
		t.Errorf("appended line diff:\n%s", d)
	}
}

func mustWrite(t *testing.T, p, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}
