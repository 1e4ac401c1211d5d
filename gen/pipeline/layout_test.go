package pipeline

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// codecMethods are the methods that belong in a codec file (X_json.go),
// never in its API file: the JSON methods and the decoders and encoders
// they call.
var codecMethods = map[string]bool{
	"UnmarshalJSON": true, "MarshalJSON": true,
	"decodeJSON": true, "decodeRest": true, "decodeMember": true, "decodeMembers": true,
	"missing": true, "appendJSON": true, "appendMembers": true, "keepOther": true, "rawObject": true,
}

// TestAPIAndCodecFiles: in the checked-in generated packages, each codec
// file X_json.go has its API file X.go beside it, with the same build
// constraint; an API file declares no codec method, and a codec file
// declares nothing exported but MarshalJSON and UnmarshalJSON methods.
func TestAPIAndCodecFiles(t *testing.T) {
	for _, pkg := range []string{"acpv1", "acpv2"} {
		codecs, err := filepath.Glob(filepath.Join(generatedDir, pkg, "*_json.go"))
		if err != nil || len(codecs) < 3 {
			t.Fatalf("%s: %d codec files (%v); want types, enums and unions at least", pkg, len(codecs), err)
		}
		for _, codec := range codecs {
			api := strings.TrimSuffix(codec, "_json.go") + ".go"
			apiFile, codecFile := parseGenerated(t, api), parseGenerated(t, codec)
			if a, c := buildLine(apiFile), buildLine(codecFile); a != c {
				t.Errorf("%s is built with %q, %s with %q", codec, c, api, a)
			}
			for _, name := range declared(apiFile.ast, true) {
				if codecMethods[name] {
					t.Errorf("%s declares %s: it belongs in %s", api, name, filepath.Base(codec))
				}
			}
			for _, name := range declared(codecFile.ast, true) {
				if ast.IsExported(name) && name != "MarshalJSON" && name != "UnmarshalJSON" {
					t.Errorf("%s declares %s: it belongs in %s", codec, name, filepath.Base(api))
				}
			}
		}
	}
}

// TestNoBareBlocks: no statement of the generated packages is a bare
// block, { … } standing alone in a list of statements.
func TestNoBareBlocks(t *testing.T) {
	for _, pkg := range []string{"acpv1", "acpv2", "convert"} {
		files, err := filepath.Glob(filepath.Join(generatedDir, pkg, "*.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no files (%v)", pkg, err)
		}
		for _, name := range files {
			f := parseGenerated(t, name)
			ast.Inspect(f.ast, func(n ast.Node) bool {
				var list []ast.Stmt
				switch n := n.(type) {
				case *ast.BlockStmt:
					list = n.List
				case *ast.CaseClause:
					list = n.Body
				case *ast.CommClause:
					list = n.Body
				}
				for _, s := range list {
					if _, ok := s.(*ast.BlockStmt); ok {
						t.Errorf("%s: a bare block", f.fset.Position(s.Pos()))
					}
				}
				return true
			})
		}
	}
}

type sourceFile struct {
	fset *token.FileSet
	ast  *ast.File
	src  string
}

func parseGenerated(t *testing.T, name string) sourceFile {
	t.Helper()
	src, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	return sourceFile{fset, f, string(src)}
}

// buildLine is the //go:build line of f, or "".
func buildLine(f sourceFile) string {
	for _, line := range strings.Split(f.src, "\n") {
		if strings.HasPrefix(line, "package ") {
			break
		}
		if strings.HasPrefix(line, "//go:build ") {
			return line
		}
	}
	return ""
}

// declared are the names that f declares at package level, methods
// included when methods is set.
func declared(f *ast.File, methods bool) []string {
	var out []string
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if methods || d.Recv == nil {
				out = append(out, d.Name.Name)
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					out = append(out, s.Name.Name)
				case *ast.ValueSpec:
					for _, n := range s.Names {
						out = append(out, n.Name)
					}
				}
			}
		}
	}
	return out
}
