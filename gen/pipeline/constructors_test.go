package pipeline

import (
	"io/fs"
	"testing"

	"github.com/acpgen/acpgen/gen/ir"
	"github.com/acpgen/acpgen/internal/revisions"
	"github.com/acpgen/acpgen/schema"
)

// TestEveryVariantHasConstructor checks that every known variant of every
// union, of both protocol versions with every unstable feature, has a
// constructor: in the pinned schema and in every published layout.
func TestEveryVariantHasConstructor(t *testing.T) {
	checkConstructors(t, "pinned", schema.FS)
	if testing.Short() {
		return
	}
	layouts, err := revisions.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range layouts {
		checkConstructors(t, l.Name(), l.FS)
	}
}

func checkConstructors(t *testing.T, name string, fsys fs.FS) {
	t.Helper()
	versions, err := Versions(fsys)
	if err != nil {
		t.Fatal(err)
	}
	features, err := Features(fsys)
	if err != nil {
		t.Fatal(err)
	}
	removed, err := Removed(fsys)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range versions {
		p, _, err := Build(fsys, v, features[v.Name], removed[v.Name])
		if err != nil {
			t.Fatalf("%s %s: %v", name, v.Name, err)
		}
		if len(p.Constructors) == 0 {
			t.Errorf("%s %s: no constructor at all", name, v.Name)
		}
		for _, missing := range ir.MissingConstructors(p) {
			t.Errorf("%s %s: the variant %s has no constructor", name, v.Name, missing)
		}
	}
}
