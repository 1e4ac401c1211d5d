package api

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acpgen/acpgen/gen/emit"
	"github.com/acpgen/acpgen/gen/pipeline"
	"github.com/acpgen/acpgen/schema"
)

const generated = "../../generated"

// buildTagPage is the page of the docs that holds the build-tag table
// (`make generate` rewrites it with acpgen api -readme).
const buildTagPage = "../../docs/generator.md"

// TestSurfaceFilesCurrent fails when generated/api/*.txt or the build-tag
// table in docs/generator.md no longer match the generated packages: run `make generate`.
func TestSurfaceFilesCurrent(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the packages once per build tag")
	}
	surfaces := map[string][]Line{}
	for _, pkg := range []string{"acpv1", "acpv2"} {
		lines, err := Tagged(filepath.Join(generated, pkg))
		if err != nil {
			t.Fatal(err)
		}
		surfaces[pkg] = lines
		want := pipeline.SurfaceHeader + string(Format(lines))
		got, err := os.ReadFile(filepath.Join(generated, "api", pkg+".txt"))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != want {
			t.Errorf("generated/api/%s.txt is stale (run `make generate`)", pkg)
		}
	}
	page, err := os.ReadFile(buildTagPage)
	if err != nil {
		t.Fatal(err)
	}
	want, err := Splice(string(page), Table(surfaces))
	if err != nil {
		t.Fatal(err)
	}
	if want != string(page) {
		t.Error("the build-tag table in docs/generator.md is stale (run `make generate`)")
	}
}

// TestNoTagBuildIsStable checks that a package built without tags has
// exactly the API of a package generated from the stable schema file alone:
// no symbol of any unstable feature.
func TestNoTagBuildIsStable(t *testing.T) {
	if testing.Short() {
		t.Skip("loads packages with the go command")
	}
	versions, err := pipeline.Versions(schema.FS)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for _, v := range versions {
		v.Unstable = ""
		p, _, err := pipeline.Build(schema.FS, v, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		out, err := emit.Render(v.Package, emit.Files(p))
		if err != nil {
			t.Fatal(err)
		}
		for name, data := range out {
			files[v.Package+"/"+name] = data
		}
	}
	stableOnly, err := generatedSurfaces(files)
	if err != nil {
		t.Fatal(err)
	}
	for _, pkg := range packagesOf(stableOnly) {
		noTags, err := packageSurface(filepath.Join(generated, pkg), nil)
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, l := range stableOnly[pkg] {
			want = append(want, l.Text)
		}
		if got, want := strings.Join(noTags, "\n"), strings.Join(want, "\n"); got != want {
			for _, c := range diffLines(surfaceLines(want), surfaceLines(got)) {
				t.Errorf("%s without tags: %s %s", pkg, c.Op, c.Text)
			}
		}
	}
}

func surfaceLines(s string) []Line {
	var out []Line
	for _, l := range strings.Split(s, "\n") {
		out = append(out, Line{Text: l})
	}
	return out
}
