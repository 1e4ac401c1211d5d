package pipeline

import (
	"go/ast"
	"go/doc/comment"
	"go/parser"
	"go/token"
	"path"
	"sort"
	"strings"
	"testing"

	"github.com/acpgen/acpgen/gen/names"
	"github.com/acpgen/acpgen/schema"
)

// TestGoDoc checks the doc comments of the generated packages: every
// exported identifier (types, functions, methods, constants, variables and
// struct fields) has one that begins with its name, and no markdown is left
// in them (code spans, bold, inline links, unindented list items).
func TestGoDoc(t *testing.T) {
	out, err := Generate(schema.FS)
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for name := range out.Files {
		if path.Ext(name) == ".go" {
			files = append(files, name)
		}
	}
	sort.Strings(files)
	checked := 0
	for _, name := range files {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, name, out.Files[name], parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		forExported(f, func(ident string, pos token.Pos, docs ...*ast.CommentGroup) {
			checked++
			checkDoc(t, fset.Position(pos).String(), ident, docs)
		})
	}
	if checked < 1000 {
		t.Errorf("checked only %d identifiers", checked)
	}
}

// checkDoc fails t unless the first of docs that is not nil begins with
// ident, is a sentence, and keeps no markdown.
func checkDoc(t *testing.T, where, ident string, docs []*ast.CommentGroup) {
	t.Helper()
	var text string
	for _, d := range docs {
		if d != nil {
			text = d.Text()
			break
		}
	}
	if text == "" {
		t.Errorf("%s: %s has no doc comment", where, ident)
		return
	}
	// Go's convention allows an article before a type's name.
	for _, article := range []string{"A ", "An ", "The "} {
		text = strings.TrimPrefix(text, article)
	}
	if first, _, _ := strings.Cut(text, " "); strings.TrimRight(first, ",.:") != ident {
		t.Errorf("%s: doc of %s begins %q", where, ident, firstLine(text))
	}
	if strings.HasPrefix(text, ident+" means:") {
		t.Errorf("%s: doc of %s is not a sentence: %q", where, ident, firstLine(text))
	}
	if bad := markdownLeft(text); bad != "" {
		t.Errorf("%s: doc of %s keeps markdown: %q", where, ident, bad)
	}
}

// forExported calls check with every exported identifier of f that needs a
// doc comment (functions, methods of exported types, types, struct fields,
// constants and variables) and the comments that may document it.
func forExported(f *ast.File, check func(ident string, pos token.Pos, docs ...*ast.CommentGroup)) {
	for _, decl := range f.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			if !d.Name.IsExported() || (d.Recv != nil && !exportedRecv(d.Recv)) {
				continue
			}
			check(d.Name.Name, d.Pos(), d.Doc)
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				switch s := spec.(type) {
				case *ast.TypeSpec:
					if !s.Name.IsExported() {
						continue
					}
					check(s.Name.Name, s.Pos(), s.Doc, d.Doc)
					if st, ok := s.Type.(*ast.StructType); ok {
						for _, fl := range st.Fields.List {
							for _, n := range fl.Names {
								// A field may be documented by a line comment
								// after it instead, as in short structs.
								if n.IsExported() && (fl.Doc != nil || fl.Comment == nil) {
									check(n.Name, n.Pos(), fl.Doc)
								}
							}
						}
					}
				case *ast.ValueSpec:
					for _, n := range s.Names {
						if n.IsExported() {
							check(n.Name, n.Pos(), s.Doc, d.Doc)
						}
					}
				}
			}
		}
	}
}

func exportedRecv(fl *ast.FieldList) bool {
	return token.IsExported(names.ReceiverName(fl.List[0].Type))
}

// markdownLeft returns a piece of markdown that a doc comment still holds.
func markdownLeft(text string) string {
	var p comment.Parser
	doc := p.Parse(text)
	for _, b := range doc.Content {
		par, ok := b.(*comment.Paragraph)
		if !ok {
			continue
		}
		for _, t := range par.Text {
			plain, ok := t.(comment.Plain)
			if !ok {
				continue
			}
			s := string(plain)
			for _, bad := range []string{"`", "**", "](http"} {
				if strings.Contains(s, bad) {
					return s
				}
			}
			for _, line := range strings.Split(s, "\n") {
				if strings.HasPrefix(line, "- ") || strings.HasPrefix(line, "* ") {
					return line
				}
			}
		}
	}
	return ""
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
