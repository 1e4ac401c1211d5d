package templates

import (
	"go/parser"
	"go/token"
	"io/fs"
	"strings"
	"testing"
)

// TestRuntimesRegistered keeps Runtimes the one list of the runtime
// templates: every template of the generated packages (all but the convert
// package's) is the template of one entry, for some version, and every
// entry's templates exist and parse once filled.
func TestRuntimesRegistered(t *testing.T) {
	used := map[string]bool{}
	names := map[string]bool{}
	for _, r := range Runtimes {
		if names[r.Name] {
			t.Errorf("runtime file %s is listed twice", r.Name)
		}
		names[r.Name] = true
		versions := r.Versions()
		if strings.Contains(r.Template, "{{VERSION}}") && len(versions) == 0 {
			t.Errorf("%s: no template matches %s", r.Name, r.Template)
		}
		if versions == nil {
			versions = []string{""}
		}
		for _, v := range versions {
			name := r.TemplateFor(v)
			used[name] = true
			src := r.Source(Fill{Header: "header", Package: "p", Version: v, ErrorCode: "int32", Build: "tag"})
			if _, err := parser.ParseFile(token.NewFileSet(), name, src, 0); err != nil {
				t.Errorf("%s (version %q): %v", name, v, err)
			}
			if strings.Contains(string(src), "{{") {
				t.Errorf("%s (version %q) keeps a placeholder", name, v)
			}
		}
	}
	all, err := fs.Glob(runtimeFS, "*.go.tmpl")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range all {
		if !strings.HasPrefix(name, "convert_") && !used[name] {
			t.Errorf("template %s is in no entry of Runtimes", name)
		}
	}
}

// TestTemplateFor checks that a version without templates of its own takes
// the latest version's.
func TestTemplateFor(t *testing.T) {
	r, ok := RuntimeNamed("conn_init.go")
	if !ok {
		t.Fatal("no conn_init.go")
	}
	for v, want := range map[string]string{"v1": "conn_init_v1.go.tmpl", "v2": "conn_init_v2.go.tmpl", "v3": "conn_init_v2.go.tmpl"} {
		if got := r.TemplateFor(v); got != want {
			t.Errorf("TemplateFor(%q) = %q, want %q", v, got, want)
		}
	}
	if r, _ := RuntimeNamed("decode.go"); r.TemplateFor("v1") != "decode.go.tmpl" {
		t.Errorf("decode.go: TemplateFor = %q", r.TemplateFor("v1"))
	}
}
