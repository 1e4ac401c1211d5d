package main

import (
	"bytes"
	"testing"

	"github.com/acpgen/acpgen/gen/api"
	"github.com/acpgen/acpgen/gen/ir"
	"github.com/acpgen/acpgen/gen/pipeline"
	"github.com/acpgen/acpgen/internal/revisions"
)

// TestCompatRevisions checks the compatibility report between published
// revisions of the schema, from the corpus of every published layout,
// against golden files under testdata/compat (go test -update rewrites them).
func TestCompatRevisions(t *testing.T) {
	layouts, err := revisions.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		old, new string
		breaking bool
	}{
		{"0.4.5", "0.5.1", true},
		{"0.4.5", "0.13.1", true},
		{"1.9.0", "2.0.0", true},
		{"2.2.0", "2.3.0", false},
		{"2.3.0", "2.4.0", false},
	} {
		t.Run(tc.old+"-"+tc.new, func(t *testing.T) {
			var sides [2]map[string]*ir.Package
			for i, v := range []string{tc.old, tc.new} {
				l, ok := revisions.Find(layouts, v)
				if !ok {
					t.Fatalf("the corpus has no %s", v)
				}
				p, err := pipeline.Packages(l.FS)
				if err != nil {
					t.Fatalf("%s: %v", v, err)
				}
				sides[i] = p
			}
			findings := comparePackages(sides[0], sides[1])
			if got := api.Breaking(findings); got != tc.breaking {
				t.Errorf("breaking: %v, want %v", got, tc.breaking)
			}
			var text, js bytes.Buffer
			if err := api.WriteReport(&text, findings, false); err != nil {
				t.Fatal(err)
			}
			if err := api.WriteReport(&js, findings, true); err != nil {
				t.Fatal(err)
			}
			goldenIn(t, "compat", tc.old+"-"+tc.new+".golden", text.Bytes())
			goldenIn(t, "compat", tc.old+"-"+tc.new+".json.golden", js.Bytes())
		})
	}
}
