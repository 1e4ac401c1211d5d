package ir

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acpgen/acpgen/gen/load"
	"github.com/acpgen/acpgen/schema"
)

var updateNulls = flag.Bool("update-nulls", false, "rewrite testdata/nullability/*.txt")

// TestNullability lists the null decision of every property of the pinned
// schemas (struct fields, shared union fields and variant fields), one line
// each, against testdata/nullability/<file>.txt: a change of the rule or of
// the schema shows as a diff to review. Run with -update-nulls to rewrite.
func TestNullability(t *testing.T) {
	for _, file := range []string{"v1/schema.json", "v1/schema.unstable.json", "v2/schema.json", "v2/schema.unstable.json"} {
		t.Run(file, func(t *testing.T) {
			data, err := schema.FS.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			f, err := load.Parse(file, data)
			if err != nil {
				t.Fatal(err)
			}
			p, err := Build(f, Options{})
			if err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			counts := map[NullUse]int{}
			line := func(owner string, fl *Field) {
				counts[fl.Null]++
				fmt.Fprintf(&b, "%s.%s: null %s\n", owner, fl.JSONName, fl.Null)
			}
			for _, ty := range p.Types {
				for _, fl := range ty.Fields {
					line(ty.Name, fl)
				}
				if ty.Union != nil {
					for _, v := range ty.Union.All() {
						for _, fl := range v.Fields {
							line(ty.Name+"["+v.Name+"]", fl)
						}
					}
				}
			}
			if counts[NullDistinct] == 0 || counts[NullAbsent] == 0 || counts[NullRejected] == 0 {
				t.Errorf("decisions %v: every kind should occur", counts)
			}
			golden := filepath.Join("testdata", "nullability", strings.ReplaceAll(file, "/", "_")+".txt")
			if *updateNulls {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./gen/ir -run Nullability -update-nulls)", err)
			}
			if got := b.String(); got != string(want) {
				t.Errorf("null decisions differ from %s; inspect and run go test ./gen/ir -run Nullability -update-nulls", golden)
			}
		})
	}
}

// TestNullUse checks the rule on the phrasings the schema uses.
func TestNullUse(t *testing.T) {
	cases := []struct {
		object, property string
		name             string
		want             bool
	}{
		{"", "Human-readable title for the session. Set to null to clear.", "title", true},
		{"", "Omission leaves the title unchanged, `null` unsets it.", "title", true},
		{"", "Optional. Omitted and `null` are equivalent and mean no title.", "title", false},
		{"Only `toolCallId` is required. Other fields have patch semantics: omitted fields leave the existing value unchanged.", "Content.", "content", true},
		{"`summary`, `error`, and `_meta` have patch semantics: omission leaves the stored value unchanged.", "Details.", "error", true},
		{"`summary`, `error`, and `_meta` have patch semantics.", "The status.", "status", false},
		{"`content` has patch semantics: an omitted field leaves content unchanged.", "Content.", "content", true},
		{"Omitted fields leave the existing session info unchanged. `null` clears the\ncorresponding value.", "Title.", "title", true},
		{"Only the ID is required. Omitted patch fields keep their previous values. `null` clears them.", "Title.", "title", true},
		{"Other fields have patch semantics.", "Omitted and `null` are equivalent and mean no metadata.", "_meta", false},
		{"All fields are optional to support partial updates.", "The title.", "title", false},
		{"Only `terminalId` is required. Other fields have patch\nsemantics: omitted fields leave the stored value unchanged.", "The command.", "command", true},
	}
	for _, c := range cases {
		got := nullClears.MatchString(c.property) && !nullSame.MatchString(c.property) ||
			!nullSame.MatchString(c.property) && patchField(c.object, c.name)
		if got != c.want {
			t.Errorf("object %q, property %q (%s): distinct = %v, want %v", c.object, c.property, c.name, got, c.want)
		}
	}
}
