package write

import (
	"path/filepath"
	"testing"
)

// TestChangesScope: a package written at the root of a directory (acpgen
// -package NAME -out .) leaves generated files in other directories alone,
// such as another generated package below it.
func TestChangesScope(t *testing.T) {
	dir := t.TempDir()
	mustWrite(t, filepath.Join(dir, "stale.go"), header+"package acp\n")
	mustWrite(t, filepath.Join(dir, "other", "types.go"), header+"package other\n")
	changes, err := Changes(dir, map[string][]byte{"types.go": []byte(header + "package acp\n")})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range changes {
		got = append(got, c.Path)
	}
	if len(got) != 2 || got[0] != "stale.go" || got[1] != "types.go" {
		t.Errorf("changes %v, want stale.go and types.go only", got)
	}
}
