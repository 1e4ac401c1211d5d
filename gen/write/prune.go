package write

import (
	"bytes"
	"go/ast"
	"go/format"
	"go/parser"
	"go/scanner"
	"go/token"

	"golang.org/x/tools/imports"
)

// pruneHelpers drops from the helper file the unexported functions that no
// generated file calls, so that a package carries no dead code; exported
// functions (Some, Null) are part of the package's API and stay.
func pruneHelpers(name string, src []byte, files map[string][]byte) ([]byte, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.ParseComments)
	if err != nil {
		return nil, err
	}
	// The identifiers of the generated files; comments do not count.
	idents := map[string]bool{}
	for _, b := range files {
		addIdents(idents, b)
	}
	used := map[string]bool{}
	for changed := true; changed; {
		changed = false
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || used[fd.Name.Name] || !(idents[fd.Name.Name] || fd.Recv == nil && ast.IsExported(fd.Name.Name)) {
				continue
			}
			used[fd.Name.Name] = true
			changed = true
			ast.Inspect(fd, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok {
					idents[id.Name] = true
				}
				return true
			})
		}
	}
	var keep, drop []ast.Decl
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && !used[fd.Name.Name] {
			drop = append(drop, d)
			continue
		}
		keep = append(keep, d)
	}
	f.Decls = keep
	// Comments of dropped functions go with them; others stay.
	var comments []*ast.CommentGroup
	for _, cg := range f.Comments {
		if !inDecls(cg, drop) {
			comments = append(comments, cg)
		}
	}
	f.Comments = comments
	var out bytes.Buffer
	if err := format.Node(&out, fset, f); err != nil {
		return nil, err
	}
	return imports.Process(name, out.Bytes(), &imports.Options{Comments: true, TabIndent: true, TabWidth: 8})
}

func inDecls(cg *ast.CommentGroup, decls []ast.Decl) bool {
	for _, d := range decls {
		start := d.Pos()
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Doc != nil {
			start = fd.Doc.Pos()
		}
		if gd, ok := d.(*ast.GenDecl); ok && gd.Doc != nil {
			start = gd.Doc.Pos()
		}
		if cg.Pos() >= start && cg.End() <= d.End() {
			return true
		}
	}
	return false
}

// addIdents adds the identifiers of the Go source src to set.
func addIdents(set map[string]bool, src []byte) {
	fset := token.NewFileSet()
	var s scanner.Scanner
	s.Init(fset.AddFile("", fset.Base(), len(src)), src, nil, 0)
	for {
		_, tok, lit := s.Scan()
		if tok == token.EOF {
			return
		}
		if tok == token.IDENT {
			set[lit] = true
		}
	}
}
