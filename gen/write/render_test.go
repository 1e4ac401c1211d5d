package write

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
	out, err := Render("acpv1", slices.Values([]emit.File{
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

// TestRenderOrder: a helper file keeps what the files before it call, and
// the files of emit come back by name, source files as they are.
func TestRenderOrder(t *testing.T) {
	caller := jen.NewFile("p")
	caller.Func().Id("f").Params().Block(jen.Id("kept").Call())
	helpers := []byte("package p\n\nfunc kept() { inner() }\n\nfunc inner() {}\n\nfunc dropped() {}\n")
	out, err := Render("p", slices.Values([]emit.File{
		{Name: "helpers_first.go", Source: helpers, Helpers: true},
		{Name: "f.go", Code: caller},
		{Name: "helpers.go", Source: helpers, Helpers: true},
		{Name: "plain.go", Source: helpers},
	}))
	if err != nil {
		t.Fatal(err)
	}
	if got := string(out["helpers_first.go"]); strings.Contains(got, "func") {
		t.Errorf("helpers before any caller kept functions:\n%s", got)
	}
	got := string(out["helpers.go"])
	for _, want := range []string{"func kept", "func inner"} {
		if !strings.Contains(got, want) {
			t.Errorf("helpers.go lost %s:\n%s", want, got)
		}
	}
	if strings.Contains(got, "dropped") {
		t.Errorf("helpers.go kept an uncalled function:\n%s", got)
	}
	if string(out["plain.go"]) != string(helpers) {
		t.Errorf("a source file changed:\n%s", out["plain.go"])
	}
}

// TestHelpersPruned checks that the helper files keep only what is called.
func TestHelpersPruned(t *testing.T) {
	files, err := Render("tiny", emit.Files(irtest.Tiny(t)))
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
