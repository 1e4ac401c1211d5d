package pipeline

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/acpgen/acpgen/internal/revisions"
	"github.com/acpgen/acpgen/schema"
	"github.com/acpgen/acpgen/templates"
)

// TestRevisions generates every schema layout that @agentclientprotocol/sdk
// has published (schema/testdata/revisions.tar.gz), with the test files of
// -tests, and type-checks the output, test files included, with no build
// tags, with the umbrella tag and with each feature tag, in a module that
// declares go 1.22. Every layout gets a package for each protocol version it
// ships a file of, v2 included when only its unstable file is published.
func TestRevisions(t *testing.T) {
	if testing.Short() {
		t.Skip("type-checks every published revision")
	}
	layouts, err := revisions.Load()
	if err != nil {
		t.Fatal(err)
	}
	if len(layouts) < 34 {
		t.Fatalf("the corpus has %d layouts, want at least 34", len(layouts))
	}
	dir := t.TempDir()
	gomod, gosum := templates.Module("example.com/revisions", "1.22")
	writeFiles(t, dir, map[string][]byte{"go.mod": gomod, "go.sum": gosum})

	// Generate on every core; each layout goes in a directory of its own,
	// whose import path is known, so that a layout of both versions gets
	// the convert package, with the bridge where the schemas have what it
	// needs (and a warning where they do not).
	failed := make([]error, len(layouts))
	bridged := make([]bool, len(layouts))
	why := make([]string, len(layouts)) // the warning of a convert package without the bridge
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for i, l := range layouts {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			bridged[i], why[i], failed[i] = generateLayout(l, dir)
		}()
	}
	wg.Wait()
	for i, err := range failed {
		if err != nil {
			t.Errorf("%s (%s): %v", layouts[i].Name(), versionRange(layouts[i]), err)
		}
	}
	if t.Failed() {
		return
	}
	var n int
	for i, l := range layouts {
		switch {
		case bridged[i]:
			n++
			t.Logf("%s (%s): convert with the bridge", l.Name(), versionRange(l))
		case why[i] != "":
			t.Logf("%s (%s): %s", l.Name(), versionRange(l), why[i])
		}
	}
	if n == 0 {
		t.Error("no layout got the bridge")
	}

	tagSets := append([]string{"", "unstable"}, featureTags(t)...)
	checkPackages(t, dir, tagSets)
}

// generateLayout generates the packages of l, with their tests, into a
// directory of its own under dir, and checks the packages it got: whether
// it got the bridge, and the warning of a convert package without it.
func generateLayout(l revisions.Layout, dir string) (bridged bool, why string, err error) {
	out, err := GenerateWith(l.FS, Options{Tests: true, ImportPath: "example.com/revisions/" + layoutDir(l)})
	if err != nil {
		return false, "", err
	}
	want := wantPackages(l)
	if _, ok := out.Files["convert/doc.go"]; ok && len(want) == 2 {
		want = append(want, "convert")
		sort.Strings(want)
	}
	if !samePackages(out.Files, want) {
		return false, "", fmt.Errorf("generated packages %v, want %v", packagesOf(out.Files), want)
	}
	_, bridged = out.Files["convert/bridge.go"]
	for _, w := range out.Warnings {
		if strings.Contains(w, "without the bridge") {
			why = w
		}
	}
	if err := bridgeWarned(out, bridged); err != nil {
		return bridged, why, err
	}
	files := map[string][]byte{}
	for name, data := range out.Files {
		files[filepath.Join(layoutDir(l), name)] = data
	}
	return bridged, why, writeFilesErr(dir, files)
}

// bridgeWarned checks that a convert package without the bridge comes with
// a warning that says why, and one with the bridge without.
func bridgeWarned(out *Output, bridged bool) error {
	_, convert := out.Files["convert/doc.go"]
	var warned bool
	for _, w := range out.Warnings {
		warned = warned || strings.Contains(w, "without the bridge")
	}
	if convert && bridged == warned {
		return fmt.Errorf("convert package with the bridge %v, warned %v: %q", bridged, warned, out.Warnings)
	}
	return nil
}

// wantPackages lists the packages a layout must produce: acpv1 for a
// top-level schema.json or v1/, acpv2 for anything under v2/.
func wantPackages(l revisions.Layout) []string {
	set := map[string]bool{}
	for name := range l.Files {
		switch {
		case strings.HasPrefix(name, "v2/"):
			set["acpv2"] = true
		case strings.HasPrefix(name, "v1/"), name == "schema.json":
			set["acpv1"] = true
		}
	}
	var out []string
	for p := range set {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

func countPackages(layouts []revisions.Layout) int {
	n := 0
	for _, l := range layouts {
		n += len(wantPackages(l))
	}
	return n
}

func packagesOf(files map[string][]byte) []string {
	set := map[string]bool{}
	for name := range files {
		pkg, _, _ := strings.Cut(name, "/")
		set[pkg] = true
	}
	var out []string
	for p := range set {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

func samePackages(files map[string][]byte, want []string) bool {
	return strings.Join(packagesOf(files), ",") == strings.Join(want, ",")
}

// layoutDir names a layout's directory: a Go import path element.
func layoutDir(l revisions.Layout) string {
	return "r" + strings.NewReplacer(".", "_", "-", "_").Replace(l.Name())
}

func versionRange(l revisions.Layout) string {
	if len(l.Versions) == 1 {
		return l.Versions[0]
	}
	return l.Versions[0] + "–" + l.Versions[len(l.Versions)-1]
}

func writeFiles(t *testing.T, dir string, files map[string][]byte) {
	t.Helper()
	if err := writeFilesErr(dir, files); err != nil {
		t.Fatal(err)
	}
}

func writeFilesErr(dir string, files map[string][]byte) error {
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// layoutFS returns the files of the published layout that holds version v.
func layoutFS(t *testing.T, v string) fs.FS {
	t.Helper()
	layouts, err := revisions.Load()
	if err != nil {
		t.Fatal(err)
	}
	l, ok := revisions.Find(layouts, v)
	if !ok {
		t.Fatalf("the corpus has no %s", v)
	}
	return l.FS
}

// featureTags returns the feature build tags of the pinned feature map.
func featureTags(t *testing.T) []string {
	t.Helper()
	features, err := Features(schema.FS)
	if err != nil {
		t.Fatal(err)
	}
	set := map[string]bool{}
	for _, fm := range features {
		for name := range fm {
			set[name] = true
		}
	}
	var out []string
	for n := range set {
		if n != "unstable" {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}
