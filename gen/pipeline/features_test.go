package pipeline

import (
	"go/build/constraint"
	"sort"
	"strings"
	"testing"

	"github.com/acpgen/acpgen/gen/ir"
	"github.com/acpgen/acpgen/schema"
)

// TestPinnedNoWarnings: the feature map matches the pinned schema item by
// item, so generating from it warns about nothing.
func TestPinnedNoWarnings(t *testing.T) {
	out, err := Generate(schema.FS)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range out.Warnings {
		t.Errorf("warning: %s", w)
	}
}

// TestFeatureTags: the build tags of the generated files are the umbrella
// tag and the features of schema/features.json, from which `make test`
// takes its tag matrix; a feature no file uses is stale.
func TestFeatureTags(t *testing.T) {
	out, err := Generate(schema.FS)
	if err != nil {
		t.Fatal(err)
	}
	used := map[string]bool{}
	for name, data := range out.Files {
		for _, line := range strings.Split(string(data), "\n") {
			if strings.HasPrefix(line, "package ") {
				break
			}
			if !constraint.IsGoBuild(line) {
				continue
			}
			expr, err := constraint.Parse(line)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			addTags(used, expr)
		}
	}
	fms, err := Features(schema.FS)
	if err != nil {
		t.Fatal(err)
	}
	mapped := map[string]bool{ir.Umbrella: true}
	for _, fm := range fms {
		for f := range fm {
			mapped[f] = true
		}
	}
	if got, want := sortedKeys(used), sortedKeys(mapped); got != want {
		t.Errorf("generated files use the tags %s; the feature map has %s", got, want)
	}
}

func sortedKeys(m map[string]bool) string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return strings.Join(out, " ")
}

// addTags adds the tags that expr names to set.
func addTags(set map[string]bool, expr constraint.Expr) {
	switch x := expr.(type) {
	case *constraint.TagExpr:
		set[x.Tag] = true
	case *constraint.NotExpr:
		addTags(set, x.X)
	case *constraint.AndExpr:
		addTags(set, x.X)
		addTags(set, x.Y)
	case *constraint.OrExpr:
		addTags(set, x.X)
		addTags(set, x.Y)
	}
}
