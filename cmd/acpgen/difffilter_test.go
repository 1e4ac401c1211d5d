package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/acpgen/acpgen/gen/api"
	"github.com/acpgen/acpgen/internal/revisions"
)

// revisionDir writes the published layout of version v to a directory.
func revisionDir(t *testing.T, v string) string {
	t.Helper()
	layouts, err := revisions.Load()
	if err != nil {
		t.Fatal(err)
	}
	l, ok := revisions.Find(layouts, v)
	if !ok {
		t.Fatalf("the corpus has no %s", v)
	}
	dir := t.TempDir()
	for name, f := range l.FS {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

type report struct {
	Breaking bool          `json:"breaking"`
	Summary  []any         `json:"summary"`
	Findings []api.Finding `json:"findings"`
}

// TestDiffFilters: going back from 2.4.0 to 2.2.0 drops the turn runtime,
// and diff says so as a change that breaks Go code; -version and -features
// keep the findings of one version and the selected build tags alone, and
// -breaking counts only those.
func TestDiffFilters(t *testing.T) {
	newer, older := revisionDir(t, "2.4.0"), revisionDir(t, "2.2.0")
	run := func(args ...string) (report, error) {
		t.Helper()
		var out bytes.Buffer
		err := diff(append(append([]string{"-json"}, args...), newer, older), &out)
		var r report
		if jerr := json.Unmarshal(out.Bytes(), &r); jerr != nil {
			t.Fatalf("diff %v: %v\n%s", args, jerr, out.String())
		}
		return r, err
	}
	r, err := run("-version", "v2", "-features", "none", "-breaking")
	if err != exitCode(1) || !r.Breaking {
		t.Errorf("-breaking: %v, breaking %v", err, r.Breaking)
	}
	found := false
	for _, f := range r.Findings {
		if f.Version != "v2" || len(f.Features) > 0 {
			t.Errorf("a finding -version v2 -features none leaves out: %+v", f)
		}
		found = found || (f.Class == api.BreaksGo && strings.HasPrefix(f.Change, "runtime turns removed (the turn runtime: TurnRunner"))
	}
	if !found {
		t.Errorf("no finding says that 2.2.0 drops the turn runtime:\n%+v", r.Findings)
	}
	r, _ = run("-features", "unstable_plan_operations")
	tagged := 0
	for _, f := range r.Findings {
		if len(f.Features) > 0 && !slices.Contains(f.Features, "unstable_plan_operations") {
			t.Errorf("a finding of other features: %+v", f)
		}
		if len(f.Features) > 0 {
			tagged++
		}
	}
	all, _ := run()
	if len(all.Findings) <= len(r.Findings) {
		t.Errorf("-features unstable_plan_operations keeps %d findings (%d tagged), all features give %d", len(r.Findings), tagged, len(all.Findings))
	}
	var out bytes.Buffer
	if err := diff([]string{"-version", "v3", newer, older}, &out); err == nil {
		t.Error("-version v3 accepted")
	}
}

// TestDiffPackageJSON: diff -json of a package has the shape of the report
// between revisions, {"breaking", "summary", "findings"}.
func TestDiffPackageJSON(t *testing.T) {
	if testing.Short() {
		t.Skip("loads packages with the go command")
	}
	var out bytes.Buffer
	if err := diff([]string{"-json", "testdata/promoted"}, &out); err != nil {
		t.Fatal(err)
	}
	var r map[string]json.RawMessage
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	for _, k := range []string{"breaking", "summary", "findings"} {
		if _, ok := r[k]; !ok || len(r) != 3 {
			t.Errorf("diff -json of a package: no %q, or other keys:\n%s", k, out.String())
		}
	}
	if !strings.Contains(string(r["findings"]), `"Extra() error`) && !strings.Contains(string(r["findings"]), "Extra()") {
		t.Errorf("findings lack Extra:\n%s", r["findings"])
	}
}
