package templates

import (
	"bytes"
	"go/format"
	"go/parser"
	"go/token"
	"io/fs"
	"path"
	"regexp"
	"strings"
	"testing"
)

// TestRuntimesRegistered keeps Runtimes the one list of the runtime files:
// every file of the generated packages (all but the convert package's) is
// the file of one entry, for some version, and every entry's files exist
// and parse once filled.
func TestRuntimesRegistered(t *testing.T) {
	used := map[string]bool{}
	names := map[string]bool{}
	for _, r := range Runtimes {
		if names[r.Name] {
			t.Errorf("runtime file %s is listed twice", r.Name)
		}
		names[r.Name] = true
		versions := r.Versions()
		if _, err := fs.Stat(runtimeFS, path.Join(r.Dir, r.Name)); err == nil && versions != nil {
			t.Errorf("%s: both a file for every version and files of versions %v", r.Name, versions)
		}
		if versions == nil {
			versions = []string{""}
		}
		for _, v := range versions {
			name := r.Path(v)
			used[name] = true
			src := r.Source(Fill{Header: "header", Package: "p", Version: v, ErrorCode: "int32", Build: "tag"})
			if _, err := parser.ParseFile(token.NewFileSet(), name, src, 0); err != nil {
				t.Errorf("%s (version %q): %v", name, v, err)
			}
			if !bytes.HasPrefix(src, []byte("// header\n\n//go:build tag\n\npackage p\n")) &&
				!bytes.HasPrefix(src, []byte("// header\n\n//go:build tag\n\n// ")) {
				t.Errorf("%s (version %q) begins %q", name, v, src[:min(len(src), 60)])
			}
		}
	}
	err := fs.WalkDir(runtimeFS, ".", func(name string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !used[name] {
			t.Errorf("runtime file %s is in no entry of Runtimes", name)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestRuntimeFilesAreGo checks that every runtime file, the convert
// package's included, is Go as it stands: it begins with the constraint
// that keeps it out of this module's builds and then a package clause or
// the package's doc comment, parses, is gofmt-formatted, and holds no
// placeholder of a text template.
func TestRuntimeFilesAreGo(t *testing.T) {
	n := 0
	for _, fsys := range []fs.FS{runtimeFS, convert} {
		err := fs.WalkDir(fsys, ".", func(name string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			n++
			src, err := fs.ReadFile(fsys, name)
			if err != nil {
				return err
			}
			if !strings.HasSuffix(name, ".go") {
				t.Errorf("%s: not a .go file", name)
			}
			if !bytes.HasPrefix(src, []byte(ignore+"\npackage ")) && !bytes.HasPrefix(src, []byte(ignore+"\n// Package ")) {
				t.Errorf("%s: does not begin with %q and a blank line", name, ignore)
			}
			f, err := parser.ParseFile(token.NewFileSet(), name, src, parser.ParseComments)
			if err != nil {
				t.Errorf("%s: %v", name, err)
				return nil
			}
			if want := map[bool]string{true: "convert", false: "acp"}[strings.HasPrefix(name, "convert/")]; f.Name.Name != want {
				t.Errorf("%s: package %s, want %s", name, f.Name.Name, want)
			}
			if formatted, err := format.Source(src); err != nil || !bytes.Equal(formatted, src) {
				t.Errorf("%s: not gofmt-formatted (%v)", name, err)
			}
			if m := placeholder.Find(src); m != nil {
				t.Errorf("%s: holds the placeholder %s", name, m)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if n < 40 {
		t.Errorf("%d runtime files, want the 40 and more of the folders", n)
	}
}

// placeholder matches a placeholder of the text templates the runtime
// files once were, {{PACKAGE}}.
var placeholder = regexp.MustCompile(`\{\{[A-Z_]+\}\}`)

// TestPath checks that a version without files of its own takes the
// latest version's, and that a file of every version is in its area.
func TestPath(t *testing.T) {
	r, ok := RuntimeNamed("conn_init.go")
	if !ok {
		t.Fatal("no conn_init.go")
	}
	for v, want := range map[string]string{"v1": "conn/v1/conn_init.go", "v2": "conn/v2/conn_init.go", "v3": "conn/v2/conn_init.go"} {
		if got := r.Path(v); got != want {
			t.Errorf("Path(%q) = %q, want %q", v, got, want)
		}
	}
	if r, _ := RuntimeNamed("decode.go"); r.Path("v1") != "codec/decode.go" {
		t.Errorf("decode.go: Path = %q", r.Path("v1"))
	}
}

// TestSourceFills checks what Source fills in: the header, the package
// name, the build constraint, and the error code's type, in code and not in
// comments.
func TestSourceFills(t *testing.T) {
	r, _ := RuntimeNamed("rpc.go")
	src := string(r.Source(Fill{Header: "Code generated. DO NOT EDIT.", Package: "acpv9", ErrorCode: "int64"}))
	if !strings.HasPrefix(src, "// Code generated. DO NOT EDIT.\n\npackage acpv9\n") {
		t.Errorf("rpc.go begins %q", src[:60])
	}
	if !strings.Contains(src, "func NewError(code int64, message string)") || !strings.Contains(src, "// The ErrorCode constants") {
		t.Errorf("rpc.go: the error code's type is not renamed in code alone")
	}
	if same := string(r.Source(Fill{Header: "h", Package: "p", ErrorCode: "ErrorCode"})); !strings.Contains(same, "func NewError(code ErrorCode,") {
		t.Errorf("rpc.go with ErrorCode: %q", same)
	}
	src2, err := Convert("bridge.go", "h", "a && b", "example.com/x/one", "example.com/x/two")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(src2, []byte("// h\n\n//go:build a && b\n\npackage convert\n")) ||
		!bytes.Contains(src2, []byte(`"example.com/x/one"`)) || !bytes.Contains(src2, []byte(`"example.com/x/two"`)) ||
		bytes.Contains(src2, []byte("generated/acpv")) {
		t.Errorf("convert bridge.go:\n%s", src2[:300])
	}
}
