package pipeline

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/acpgen/acpgen/gen/write"
	"github.com/acpgen/acpgen/schema"
	"github.com/acpgen/acpgen/templates"
)

// generatedDir is the checked-in output, relative to this package.
const generatedDir = "../../generated"

// makeGenerate are the options that `make generate` (go run ./cmd/acpgen
// -out generated -tests) passes, from a source tree of this module.
var makeGenerate = Options{
	Tests:      true,
	Generator:  "github.com/acpgen/acpgen (devel)",
	Command:    "acpgen -out generated -tests",
	ImportPath: "github.com/acpgen/acpgen/generated",
}

// TestGeneratedIsCurrent regenerates in memory from the pinned schema and
// fails when the checked-in packages differ: run `make generate`.
func TestGeneratedIsCurrent(t *testing.T) {
	out, err := GenerateWith(schema.FS, makeGenerate)
	if err != nil {
		t.Fatal(err)
	}
	changes, err := write.Changes(generatedDir, out.Files)
	if err != nil {
		t.Fatal(err)
	}
	if len(changes) > 0 {
		t.Errorf("generated/ is stale (run `make generate`):\n%s", write.Diff(changes))
	}
}

// TestDeterministic generates twice and expects the same bytes.
func TestDeterministic(t *testing.T) {
	a, err := Generate(schema.FS)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Generate(schema.FS)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(a.Warnings, "\n") != strings.Join(b.Warnings, "\n") {
		t.Errorf("warnings differ between two runs")
	}
	if len(a.Files) != len(b.Files) {
		t.Fatalf("%d files, then %d", len(a.Files), len(b.Files))
	}
	for name, data := range a.Files {
		if !bytes.Equal(data, b.Files[name]) {
			t.Errorf("%s differs between two runs", name)
		}
	}
}

// TestHeader checks every file carries the standard generated-code header.
func TestHeader(t *testing.T) {
	out, err := Generate(schema.FS)
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range out.Files {
		first, _, _ := strings.Cut(string(data), "\n")
		if !strings.HasPrefix(first, "// Code generated ") || !strings.HasSuffix(first, " DO NOT EDIT.") {
			t.Errorf("%s: first line %q is not a generated-code header", name, first)
		}
	}
}

// TestGo122 builds and vets the checked-in packages in a module that
// declares go 1.22: newer language features or library calls fail it.
func TestGo122(t *testing.T) {
	files := map[string][]byte{}
	for _, pkg := range []string{"acpv1", "acpv2"} {
		names, err := filepath.Glob(filepath.Join(generatedDir, pkg, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range names {
			if strings.HasSuffix(n, "_test.go") {
				continue
			}
			data, err := os.ReadFile(n)
			if err != nil {
				t.Fatal(err)
			}
			files[pkg+"/"+filepath.Base(n)] = data
		}
	}
	if len(files) == 0 {
		t.Fatal("no generated files found")
	}
	for _, tags := range []string{"", "unstable"} {
		vetModule(t, files, tags)
	}
}

// vetModule writes files into a fresh go 1.22 module and runs go vet on it.
func vetModule(t *testing.T, files map[string][]byte, tags string) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds a module with the go command")
	}
	cmd := exec.Command("go", "vet", "-tags="+tags, "./...")
	cmd.Dir = writeModule(t, files)
	cmd.Env = moduleEnv()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go vet in a go 1.22 module: %v\n%s", err, out)
	}
}

// writeModule writes files into a fresh go 1.22 module and returns its
// directory.
func writeModule(t *testing.T, files map[string][]byte) string {
	t.Helper()
	dir := t.TempDir()
	files["go.mod"], files["go.sum"] = templates.Module("example.com/acpcheck", "1.22")
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// moduleEnv is the environment of the go command in a module of
// writeModule: the decoder module comes from the module cache, which go mod
// download fills for this repository; no network.
func moduleEnv() []string {
	return append(os.Environ(), "GOTOOLCHAIN=local", "GOFLAGS=-mod=mod", "GOPROXY=off")
}

// TestBadSchema reports errors with the schema location and writes nothing.
func TestBadSchema(t *testing.T) {
	for _, tc := range []struct {
		name, schema, want string
	}{
		{"not json", `{`, "v1/schema.json"},
		{"no defs", `{"$schema":"https://json-schema.org/draft/2020-12/schema"}`, "no $defs"},
		{"bad ref", `{"$defs":{"A":{"type":"object","properties":{"b":{"$ref":"#/$defs/Missing"}}}}}`, "v1/schema.json:1:58: /$defs/A/properties/b/$ref: $ref \"#/$defs/Missing\" names the $defs entry \"Missing\", which the file does not have"},
		{"mixed types", `{"$defs":{"A":{"type":"object","properties":{"b":{"type":["string","integer"]}}}}}`, "/$defs/A/properties/b"},
		{"bad format", `{"$defs":{"A":{"type":"integer","format":"int128"}}}`, "/$defs/A"},
		{"two fallbacks", `{"$defs":{"U":{"anyOf":[
			{"type":"object","properties":{"t":{"const":"a","type":"string"}},"required":["t"]},
			{"title":"other","type":"object","properties":{"t":{"type":"string"}},"not":{}},
			{"title":"other","type":"object","properties":{"t":{"type":"string"}},"not":{}}]}}}`, "/$defs/U/anyOf/2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fsys := fstest.MapFS{"v1/schema.json": {Data: []byte(tc.schema)}}
			out, err := Generate(fsys)
			if err == nil {
				t.Fatalf("no error; generated %d files", len(out.Files))
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not mention %q", err, tc.want)
			}
		})
	}
}
