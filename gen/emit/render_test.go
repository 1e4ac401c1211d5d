package emit_test

import (
	"go/parser"
	"go/token"
	"slices"
	"strings"
	"testing"

	"github.com/dave/jennifer/jen"

	"github.com/acpgen/acpgen/gen/emit"
	"github.com/acpgen/acpgen/internal/irtest"
)

// TestRenderFormatError: Go that does not format, or that jennifer panics
// on, is reported once per file, by path and first problem, without the
// unformatted source, and nothing is returned.
func TestRenderFormatError(t *testing.T) {
	bad := jen.NewFile("p")
	bad.Func().Id("f").Params().Block(jen.Id("x").Op(":=").Op("}"))
	good := jen.NewFile("p")
	good.Func().Id("g").Params().Block()
	panics := jen.NewFile("p")
	panics.Var().Id("v").Op("=").Lit(struct{}{})
	out, err := emit.Render("acpv1", slices.Values([]emit.File{
		{Name: "good.go", Code: good},
		{Name: "bad.go", Code: bad},
		{Name: "raw.go", Source: []byte("package p\n")},
		{Name: "panics.go", Code: panics},
	}))
	if err == nil || out != nil {
		t.Fatalf("got %d files and %v, want an error and no files", len(out), err)
	}
	msg := err.Error()
	if !strings.HasPrefix(msg, "internal error") || !strings.Contains(msg, "acpv1/bad.go: ") || !strings.Contains(msg, "acpv1/panics.go: panic: ") || strings.Contains(msg, "good.go") {
		t.Errorf("error does not name the two files that fail: %s", msg)
	}
	if strings.Contains(msg, "\n") || strings.Contains(msg, "func f") {
		t.Errorf("error carries the source: %q", msg)
	}
}

// TestRenderHelpers: the helper files keep what the other files call,
// directly or through a helper of any helper file, before or after it, and
// nothing else; the files come back by name, source files as they are.
func TestRenderHelpers(t *testing.T) {
	caller := jen.NewFile("p")
	caller.Func().Id("f").Params().Block(jen.Id("kept").Call())
	first := []byte("package p\n\nfunc inner() { innermost() }\n\nfunc droppedFirst() {}\n")
	second := []byte("package p\n\nfunc kept() { inner() }\n\nfunc innermost() {}\n\nfunc dropped() {}\n")
	plain := []byte("package p\n\nfunc plain() {}\n")
	out, err := emit.Render("p", slices.Values([]emit.File{
		{Name: "first.go", Source: first, Helpers: true},
		{Name: "f.go", Code: caller},
		{Name: "second.go", Source: second, Helpers: true},
		{Name: "plain.go", Source: plain},
	}))
	if err != nil {
		t.Fatal(err)
	}
	for file, want := range map[string][]string{"first.go": {"func inner"}, "second.go": {"func kept", "func innermost"}} {
		got := string(out[file])
		for _, w := range want {
			if !strings.Contains(got, w) {
				t.Errorf("%s lost %s:\n%s", file, w, got)
			}
		}
		if strings.Contains(got, "dropped") {
			t.Errorf("%s kept an uncalled function:\n%s", file, got)
		}
	}
	if string(out["plain.go"]) != string(plain) {
		t.Errorf("a source file changed:\n%s", out["plain.go"])
	}
	if _, ok := out["f.go"]; !ok {
		t.Error("f.go is missing")
	}
}

// TestHelpersPruned checks that the helper files keep only what is called.
func TestHelpersPruned(t *testing.T) {
	files, err := emit.Render("tiny", emit.Files(irtest.Tiny(t)))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		file       string
		kept, gone []string
	}{
		// The tiny schema has no untagged union of arrays.
		{"json.go", []string{"jsonKind", "typeError"}, []string{"firstElementMembers"}},
		// It has no Nullable members; its one unsigned integer is a defined
		// type (Port), whose MarshalJSON calls encodeUint.
		{"encode.go", []string{"appendString", "appendSlice", "appendMap", "encodeString", "encodeWith", "encodeUint"}, []string{"appendNullable"}},
	} {
		f, err := parser.ParseFile(token.NewFileSet(), c.file, files[c.file], 0)
		if err != nil {
			t.Fatal(err)
		}
		have := map[string]bool{}
		for _, obj := range f.Scope.Objects {
			have[obj.Name] = true
		}
		for _, name := range c.gone {
			if have[name] {
				t.Errorf("%s: %s is kept though nothing calls it", c.file, name)
			}
		}
		for _, name := range c.kept {
			if !have[name] {
				t.Errorf("%s: %s was dropped though generated code calls it", c.file, name)
			}
		}
	}
}
