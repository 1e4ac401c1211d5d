// Package dirtest reads directory trees for tests that compare what the
// generator left on disk before and after a run.
package dirtest

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// Snapshot returns every file under dir by its slash-separated path
// relative to dir, with its content.
func Snapshot(t testing.TB, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
