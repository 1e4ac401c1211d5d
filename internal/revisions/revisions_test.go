package revisions

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"
)

func TestLoad(t *testing.T) {
	layouts, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, l := range layouts {
		if len(l.Versions) == 0 || len(l.Files) == 0 {
			t.Fatalf("layout %v has no versions or no files", l.Versions)
		}
		for name, sum := range l.Files {
			got := sha256.Sum256(l.FS[name].Data)
			if hex.EncodeToString(got[:]) != sum {
				t.Errorf("layout %s: %s does not match its sha256", l.Name(), name)
			}
		}
		for _, v := range l.Versions {
			if seen[v] {
				t.Errorf("version %s is in two layouts", v)
			}
			seen[v] = true
		}
	}
	if _, ok := Find(layouts, "2.4.0"); !ok {
		t.Error("the corpus has no 2.4.0, the pinned version")
	}
}
