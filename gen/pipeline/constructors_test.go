package pipeline

import (
	"io/fs"
	"strings"
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

// TestShortcuts checks that the pinned schema gets every shortcut for the
// messages every agent sends, EndTurn in v2 only.
func TestShortcuts(t *testing.T) {
	want := map[string]string{
		"v1": "AgentMessageText AgentThoughtText UserMessageText UpdatePlan StartToolCall FinishToolCall",
		"v2": "AgentMessageText AgentThoughtText UserMessageText UpdatePlan EndTurn StartToolCall FinishToolCall",
	}
	in, err := readInputs(schema.FS)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range in.versions {
		p, _, err := in.build(schema.FS, v)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, s := range p.Shortcuts {
			if s.Gate().Unstable {
				t.Errorf("%s: %s is behind build tags", v.Name, s.Name)
			}
			got = append(got, s.Name)
		}
		if strings.Join(got, " ") != want[v.Name] {
			t.Errorf("%s: shortcuts %v, want %s", v.Name, got, want[v.Name])
		}
	}
}

func checkConstructors(t *testing.T, name string, fsys fs.FS) {
	t.Helper()
	in, err := readInputs(fsys)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range in.versions {
		p, _, err := in.build(fsys, v)
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
