package write

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acpgen/acpgen/internal/dirtest"
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
	got := paths(changes)
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

func sameTree(t *testing.T, what string, got, want map[string]string) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d files, want %d: %v", what, len(got), len(want), got)
	}
	for name, data := range want {
		if got[name] != data {
			t.Errorf("%s: %s = %q, want %q", what, name, got[name], data)
		}
	}
}

// TestOneVersion: files for acpv1 alone leave acpv2 as it is, unless Prune asks.
func TestOneVersion(t *testing.T) {
	dir := t.TempDir()
	mustWrite(t, filepath.Join(dir, "acpv1", "types.go"), header+"package acpv1 // old\n")
	mustWrite(t, filepath.Join(dir, "acpv1", "gone.go"), header+"package acpv1\n")
	mustWrite(t, filepath.Join(dir, "acpv2", "types.go"), header+"package acpv2\n")
	files := map[string][]byte{"acpv1/types.go": []byte(header + "package acpv1 // new\n")}
	changes, err := Write(dir, files)
	if err != nil {
		t.Fatal(err)
	}
	got := paths(changes)
	if strings.Join(got, " ") != "acpv1/gone.go acpv1/types.go" {
		t.Errorf("changes %v", got)
	}
	sameTree(t, "without Prune", dirtest.Snapshot(t, dir), map[string]string{
		"acpv1/types.go": header + "package acpv1 // new\n",
		"acpv2/types.go": header + "package acpv2\n",
	})
	if _, err := (Options{Prune: true}).Write(dir, files); err != nil {
		t.Fatal(err)
	}
	sameTree(t, "with Prune", dirtest.Snapshot(t, dir), map[string]string{"acpv1/types.go": header + "package acpv1 // new\n"})
}

// TestChangesReadOnly: computing the changes (acpgen -check) writes nothing.
func TestChangesReadOnly(t *testing.T) {
	dir := t.TempDir()
	mustWrite(t, filepath.Join(dir, "p", "a.go"), header+"package p\n")
	mustWrite(t, filepath.Join(dir, "p", "stale.go"), header+"package p\n")
	before := dirtest.Snapshot(t, dir)
	for _, o := range []Options{{}, {Prune: true}} {
		changes, err := o.Changes(dir, map[string][]byte{"p/a.go": []byte(header + "package p // x\n"), "q/b.go": []byte(header + "package q\n")})
		if err != nil || len(changes) != 3 {
			t.Errorf("changes = %v, %v; want 3", changes, err)
		}
	}
	sameTree(t, "after Changes", dirtest.Snapshot(t, dir), before)
	if _, err := os.Stat(filepath.Join(dir, "q")); !os.IsNotExist(err) {
		t.Error("Changes created a directory")
	}
}

// TestRollback makes each rename of a write fail in turn: the tree is left
// exactly as it was, with no temporary files.
func TestRollback(t *testing.T) {
	files := map[string][]byte{
		"p/a.go":   []byte(header + "package p // a new\n"),
		"p/b.go":   []byte(header + "package p // b new\n"),
		"p/q/c.go": []byte(header + "package q // c new\n"),
		"r/d.go":   []byte(header + "package r // d new\n"),
	}
	defer func() { rename = os.Rename }()
	for fail := 0; ; fail++ {
		dir := t.TempDir()
		mustWrite(t, filepath.Join(dir, "p", "a.go"), header+"package p // a old\n")
		mustWrite(t, filepath.Join(dir, "p", "stale.go"), header+"package p // stale\n")
		mustWrite(t, filepath.Join(dir, "p", "hand_test.go"), "package p\n")
		before := dirtest.Snapshot(t, dir)
		calls := 0
		rename = func(from, to string) error {
			calls++
			if calls == fail+1 {
				return errors.New("disk full")
			}
			return os.Rename(from, to)
		}
		_, err := Write(dir, files)
		rename = os.Rename
		if err == nil {
			// Two files kept aside, four put in place.
			if fail != 6 {
				t.Fatalf("write succeeded with rename %d failing; want it to fail for each of 6 renames", fail+1)
			}
			break
		}
		sameTree(t, fmt.Sprintf("rename %d failing", fail+1), dirtest.Snapshot(t, dir), before)
		if _, err := os.Stat(filepath.Join(dir, "r")); !os.IsNotExist(err) {
			t.Errorf("rename %d failing: directory r left behind", fail+1)
		}
	}
}

// paths lists the paths of changes, in their order.
func paths(changes []Change) []string {
	var out []string
	for _, c := range changes {
		out = append(out, c.Path)
	}
	return out
}
