package pipeline

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"golang.org/x/tools/txtar"
)

var update = flag.Bool("update", false, "rewrite the want sections of testdata/hostile/*.txtar")

// HostileCase is one schema directory of testdata/hostile, from a txtar
// archive: the schema files, and a "want" section that holds either the
// exact error (located: file:line:column: pointer: sentence) or "ok" for a
// schema that generates packages that vet with and without -tags unstable.
type hostileCase struct {
	name string
	path string
	arc  *txtar.Archive
	fsys fstest.MapFS
	want string
}

func hostileCases(t testing.TB) []hostileCase {
	paths, err := filepath.Glob("testdata/hostile/*.txtar")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no cases under testdata/hostile (%v)", err)
	}
	var out []hostileCase
	for _, p := range paths {
		arc, err := txtar.ParseFile(p)
		if err != nil {
			t.Fatal(err)
		}
		c := hostileCase{name: strings.TrimSuffix(filepath.Base(p), ".txtar"), path: p, arc: arc, fsys: fstest.MapFS{}}
		for _, f := range arc.Files {
			if f.Name == "want" {
				c.want = strings.TrimSuffix(string(f.Data), "\n")
				continue
			}
			c.fsys[f.Name] = &fstest.MapFile{Data: f.Data}
		}
		out = append(out, c)
	}
	return out
}

// generateSafely runs Generate and turns a panic into an error.
func generateSafely(c hostileCase) (out *Output, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("panic: %v", r)
		}
	}()
	return Generate(c.fsys)
}

// TestHostile generates from each hostile schema: the result is the exact
// located error of its want section, or packages that vet under both tag
// sets. No case may panic, and none may be an error that escaped the check
// stage into the emitter.
func TestHostile(t *testing.T) {
	for _, c := range hostileCases(t) {
		c := c
		t.Run(c.name, func(t *testing.T) {
			out, err := generateSafely(c)
			got := "ok"
			if err != nil {
				got = err.Error()
			}
			if strings.HasPrefix(got, "panic:") || strings.Contains(got, "internal error") {
				t.Fatalf("%s", got)
			}
			if *update {
				writeWant(t, c, got)
				return
			}
			if got != c.want {
				t.Fatalf("got\n%s\nwant\n%s", got, c.want)
			}
			if err != nil {
				return
			}
			for name := range out.Files {
				if _, ok := c.fsys[strings.Replace(path0(name), "acp", "", 1)+"/schema.json"]; !ok {
					t.Errorf("%s generated for a version the schema directory does not have", name)
				}
			}
			for _, tags := range []string{"", "unstable"} {
				vetModule(t, copyFiles(out.Files), tags)
			}
		})
	}
}

// path0 is the first element of a slash-separated path.
func path0(p string) string {
	first, _, _ := strings.Cut(p, "/")
	return first
}

func copyFiles(files map[string][]byte) map[string][]byte {
	out := make(map[string][]byte, len(files))
	for k, v := range files {
		out[k] = v
	}
	return out
}

func writeWant(t *testing.T, c hostileCase, got string) {
	t.Helper()
	var files []txtar.File
	for _, f := range c.arc.Files {
		if f.Name != "want" {
			files = append(files, f)
		}
	}
	c.arc.Files = append(files, txtar.File{Name: "want", Data: []byte(got + "\n")})
	if err := os.WriteFile(c.path, txtar.Format(c.arc), 0o644); err != nil {
		t.Fatal(err)
	}
}
