package write

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestKeepFiles: under go generate a file that is no longer generated
// becomes a placeholder in its package, which then counts as up to date;
// a run without KeepFiles removes it. The file holding the go:generate
// line, not written by acpgen, is neither emptied nor overwritten.
func TestKeepFiles(t *testing.T) {
	dir := t.TempDir()
	mustWrite(t, filepath.Join(dir, "acp", "session.go"), header+"//go:build x\n\npackage acp\n")
	mustWrite(t, filepath.Join(dir, "acp", "session_test.go"), header+"package acp_test\n")
	mustWrite(t, filepath.Join(dir, "acp", "generate.go"), "package acp\n\n//go:generate go tool acpgen -out .\n")
	files := map[string][]byte{"acp/types.go": []byte(header + "package acp\n")}
	keep := Options{KeepFiles: true}
	changes, err := keep.Write(dir, files)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(paths(changes), " "); got != "acp/session.go acp/session_test.go acp/types.go" {
		t.Errorf("changes %s", got)
	}
	for name, pkg := range map[string]string{"session.go": "acp", "session_test.go": "acp_test"} {
		b, err := os.ReadFile(filepath.Join(dir, "acp", name))
		if err != nil || !IsPlaceholder(b) || !strings.HasSuffix(string(b), "\npackage "+pkg+"\n") {
			t.Errorf("%s is not a placeholder of package %s: %q, %v", name, pkg, b, err)
		}
	}
	if changes, err := keep.Changes(dir, files); err != nil || len(changes) != 0 {
		t.Errorf("placeholders are not up to date: %v, %v", paths(changes), err)
	}
	changes, err = Write(dir, files)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(paths(changes), " "); got != "acp/session.go acp/session_test.go" {
		t.Errorf("a run outside go generate changed %s, want the placeholders removed", got)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "acp", "generate.go")); err != nil || strings.Contains(string(b), generatedPrefix) {
		t.Errorf("generate.go = %q, %v", b, err)
	}
	_, err = keep.Write(dir, map[string][]byte{"acp/generate.go": []byte(header + "package acp\n")})
	if err == nil || !strings.Contains(err.Error(), "refusing to overwrite") {
		t.Errorf("overwrote the file with the go:generate line: %v", err)
	}
}
