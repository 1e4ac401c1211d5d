package pipeline

import (
	"errors"
	"io/fs"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/acpgen/acpgen/gen/ir"
	"github.com/acpgen/acpgen/schema"
)

func TestOptionsInvalid(t *testing.T) {
	for _, tc := range []struct {
		name string
		fsys fs.FS
		opts Options
		want string
	}{
		{"package with two versions", schema.FS, Options{Package: "acp"}, "needs exactly one -version"},
		{"package not an identifier", schema.FS, Options{Versions: []string{"v1"}, Package: "my-acp"}, "not a Go package name"},
		{"package a keyword", schema.FS, Options{Versions: []string{"v1"}, Package: "type"}, "not a Go package name"},
		{"version the schema lacks", layoutFS(t, "1.2.1"), Options{Versions: []string{"v2"}}, "the schema has v1 only"},
		{"unknown feature", schema.FS, Options{Select: &ir.Selection{Features: []string{"unstable_nope"}}}, `unknown feature "unstable_nope"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := GenerateWith(tc.fsys, tc.opts)
			var u *UsageError
			if !errors.As(err, &u) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err %v (output %v); want a *UsageError containing %q", err, out != nil, tc.want)
			}
		})
	}
}

func TestParseFeatures(t *testing.T) {
	for _, tc := range []struct {
		in   string
		bake bool
		want *ir.Selection
		err  bool
	}{
		{"all", false, nil, false},
		{"all", true, &ir.Selection{All: true, Bake: true}, false},
		{"none", false, &ir.Selection{Features: []string{}}, false},
		{"unstable_session_fork, unstable_plan_operations,unstable_session_fork", false,
			&ir.Selection{Features: []string{"unstable_plan_operations", "unstable_session_fork"}}, false},
		{"unstable_session_fork,", false, nil, true},
		{"all,unstable_session_fork", false, nil, true},
	} {
		got, err := ParseFeatures(tc.in, tc.bake)
		if (err != nil) != tc.err {
			t.Errorf("%q: err %v, want error %v", tc.in, err, tc.err)
			continue
		}
		if describeSelection(got) != describeSelection(tc.want) {
			t.Errorf("%q: got %s, want %s", tc.in, describeSelection(got), describeSelection(tc.want))
		}
	}
}

func describeSelection(s *ir.Selection) string {
	if s == nil {
		return "nil"
	}
	return strings.Join(append([]string{
		map[bool]string{true: "all", false: "list"}[s.All],
		map[bool]string{true: "bake", false: "tags"}[s.Bake]}, s.Features...), " ")
}

// TestOneVersionPackage generates v1 alone as package acp: its files sit at
// the root of the output and declare package acp; there is no v2 and no
// convert package.
func TestOneVersionPackage(t *testing.T) {
	out, err := GenerateWith(schema.FS, Options{Versions: []string{"v1"}, Package: "acp", ImportPath: "example.com/m/acp"})
	if err != nil {
		t.Fatal(err)
	}
	if out.Files["types.go"] == nil {
		t.Fatalf("no types.go at the root; files: %v", keys(out.Files))
	}
	for name, data := range out.Files {
		if strings.Contains(name, "/") {
			t.Errorf("%s: not at the root of the output", name)
		}
		if !strings.Contains(string(data), "\npackage acp\n") {
			t.Errorf("%s: does not declare package acp", name)
		}
	}
}

// TestFeatureSelection checks that features left out produce no code and
// that baked features need no build tag.
func TestFeatureSelection(t *testing.T) {
	for _, tc := range []struct {
		name      string
		sel       ir.Selection
		fork      bool // SessionCapabilities.Fork is generated
		plan      bool // v1 PlanRemoved is generated
		buildTags bool // some file has a build constraint
	}{
		{"none", ir.Selection{Features: []string{}}, false, false, false},
		{"session fork", ir.Selection{Features: []string{"unstable_session_fork"}}, true, false, true},
		{"session fork baked", ir.Selection{Features: []string{"unstable_session_fork"}, Bake: true}, true, false, false},
		{"all baked", ir.Selection{All: true, Bake: true}, true, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sel := tc.sel
			out, err := GenerateWith(schema.FS, Options{Versions: []string{"v1"}, Select: &sel})
			if err != nil {
				t.Fatal(err)
			}
			var all strings.Builder
			for _, name := range keys(out.Files) {
				all.Write(out.Files[name])
			}
			src := all.String()
			if got := strings.Contains(src, "type SessionForkCapabilities struct"); got != tc.fork {
				t.Errorf("SessionForkCapabilities generated: %v, want %v", got, tc.fork)
			}
			if got := strings.Contains(src, "type PlanRemoved struct"); got != tc.plan {
				t.Errorf("PlanRemoved generated: %v, want %v", got, tc.plan)
			}
			if got := strings.Contains(src, "\n//go:build "); got != tc.buildTags {
				t.Errorf("build constraints: %v, want %v", got, tc.buildTags)
			}
		})
	}
}

// TestProvenance checks the header: generator and command as given, the npm
// version when provenance.json vouches for the files, their sha256 when it
// does not.
func TestProvenance(t *testing.T) {
	opts := Options{Versions: []string{"v1"}, Generator: "github.com/acpgen/acpgen v1.2.3", Command: "acpgen -version v1"}
	out, err := GenerateWith(schema.FS, opts)
	if err != nil {
		t.Fatal(err)
	}
	want := "// Code generated by acpgen. DO NOT EDIT.\n//\n" +
		"// Generator: github.com/acpgen/acpgen v1.2.3\n" +
		"// Command: acpgen -version v1\n" +
		"// Schema: @agentclientprotocol/sdk 2.4.0, v1/schema.json and v1/schema.unstable.json\n\n"
	if got := string(out.Files["acpv1/types.go"]); !strings.HasPrefix(got, want) {
		t.Errorf("header:\n%s\nwant:\n%s", got[:len(want)], want)
	}

	// The same files with the stable schema changed by one byte:
	// provenance.json no longer vouches for it, and generation (so -check)
	// fails at the file.
	edited := fstest.MapFS{}
	for _, name := range []string{"provenance.json", "v1/schema.json", "v1/schema.unstable.json"} {
		data, err := fs.ReadFile(schema.FS, name)
		if err != nil {
			t.Fatal(err)
		}
		edited[name] = &fstest.MapFile{Data: data}
	}
	edited["v1/schema.json"].Data = append(edited["v1/schema.json"].Data, '\n')
	_, err = GenerateWith(edited, opts)
	if want := "v1/schema.json:1:1: the file no longer matches provenance.json (@agentclientprotocol/sdk 2.4.0): its sha256 is "; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("edited file: %v, want %q…", err, want)
	}
	// Without provenance.json the header lists the files by their sha256.
	delete(edited, "provenance.json")
	out, err = GenerateWith(edited, opts)
	if err != nil {
		t.Fatal(err)
	}
	head := string(out.Files["acpv1/types.go"])
	head = head[:strings.Index(head, "\npackage ")]
	for _, want := range []string{
		"// Schema files:\n",
		"//   v1/schema.json sha256:",
		"//   v1/schema.unstable.json sha256:ce7881d10c854bcac4f0e7d3a9ce4fb0f612ec0a09e64b572940beec4668c189\n",
	} {
		if !strings.Contains(head, want) {
			t.Errorf("header lacks %q:\n%s", want, head)
		}
	}
	if strings.Contains(head, "2.4.0") {
		t.Errorf("header names the npm version of files it does not match:\n%s", head)
	}
}

func keys(m map[string][]byte) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
