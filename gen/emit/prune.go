package emit

import (
	"bytes"
	"go/ast"
	"go/format"
	"go/parser"
	"go/scanner"
	"go/token"

	"golang.org/x/tools/imports"
)

// fileError is the error of one file.
type fileError struct {
	file string
	err  error
}

// pruneHelpers drops from the helper files the functions, types, variables
// and constants that no generated file uses, directly or through the kept
// declarations of any helper file, so that a package carries no dead code;
// exported functions (Some, Null) are part of the package's API and stay.
// files are the other generated files; it returns the helper files' source
// by name.
func pruneHelpers(helpers []File, files map[string][]byte) (map[string][]byte, *fileError) {
	fset := token.NewFileSet()
	parsed := make([]*ast.File, len(helpers))
	for i, h := range helpers {
		f, err := parser.ParseFile(fset, h.Name, h.Source, parser.ParseComments)
		if err != nil {
			return nil, &fileError{h.Name, err}
		}
		parsed[i] = f
	}
	// The identifiers of the generated files; comments do not count.
	idents := map[string]bool{}
	for _, b := range files {
		addIdents(idents, b)
	}
	used := map[ast.Decl]bool{}
	for changed := true; changed; {
		changed = false
		for _, f := range parsed {
			for _, d := range f.Decls {
				if used[d] || !declUsed(d, idents) {
					continue
				}
				used[d] = true
				changed = true
				ast.Inspect(d, func(n ast.Node) bool {
					if id, ok := n.(*ast.Ident); ok {
						idents[id.Name] = true
					}
					return true
				})
			}
		}
	}
	out := map[string][]byte{}
	for i, f := range parsed {
		src, err := keepUsed(fset, helpers[i].Name, f, used)
		if err != nil {
			return nil, &fileError{helpers[i].Name, err}
		}
		out[helpers[i].Name] = src
	}
	return out, nil
}

// keepUsed formats f with only its used declarations, and the comments of
// the others left out.
func keepUsed(fset *token.FileSet, name string, f *ast.File, used map[ast.Decl]bool) ([]byte, error) {
	var keep, drop []ast.Decl
	for _, d := range f.Decls {
		if !used[d] {
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

// declUsed reports whether d declares a name in idents; imports count as
// used (goimports drops the unused ones).
func declUsed(d ast.Decl, idents map[string]bool) bool {
	switch d := d.(type) {
	case *ast.FuncDecl:
		return idents[d.Name.Name] || d.Recv == nil && ast.IsExported(d.Name.Name)
	case *ast.GenDecl:
		if d.Tok == token.IMPORT {
			return true
		}
		for _, spec := range d.Specs {
			switch sp := spec.(type) {
			case *ast.TypeSpec:
				if idents[sp.Name.Name] {
					return true
				}
			case *ast.ValueSpec:
				for _, n := range sp.Names {
					if idents[n.Name] {
						return true
					}
				}
			}
		}
	}
	return false
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
