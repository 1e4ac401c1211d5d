package templates

import (
	"go/ast"
	"go/types"
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/packages"
)

// connStages are the files of the connection runtime along the path of a
// message, in order: a line is read, parsed, held while an initialize is served, dispatched, served (through the
// middleware to its route), and its answer sent and written; an outbound
// call starts in conn_call.go and takes the same way out. The outbox, which
// the senders fill and the writer empties, comes last.
var connStages = []string{
	"conn_read.go", "conn_parse.go", "conn_hold.go", "conn_dispatch.go", "conn_serve.go", "conn_call.go",
	"conn_middleware.go", "conn_route.go", "conn_send.go", "conn_write.go", "conn_outbox.go",
}

// TestConnPathOneWay checks that the calls between the stages of the
// connection runtime flow one way: no function of a stage calls one of an
// earlier stage, so that the walk of a message from the reader to its
// handler and out again never climbs back. The other files (conn.go, with
// the connection's end, which any stage calls when reading or writing
// fails; the options, the request context, the hooks) are not stages. It
// reads the calls, resolved by the type checker, in the generated package
// acpv2, whose runtime files are these.
func TestConnPathOneWay(t *testing.T) {
	mode := packages.NeedName | packages.NeedFiles | packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo
	pkgs, err := packages.Load(&packages.Config{Mode: mode, Dir: ".."}, "./generated/acpv2")
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) != 1 || len(pkgs[0].Errors) > 0 {
		t.Fatalf("loading generated/acpv2: %v", pkgs)
	}
	p := pkgs[0]
	stage := map[string]int{}
	for i, name := range connStages {
		stage[name] = i
		if r, ok := RuntimeNamed(name); !ok || r.Dir != "conn" {
			t.Errorf("%s is not a runtime file of the connection", name)
		}
	}
	seen := map[string]bool{}
	edges := 0
	for _, f := range p.Syntax {
		file := filepath.Base(p.Fset.File(f.Pos()).Name())
		from, ok := stage[file]
		if !ok {
			continue
		}
		seen[file] = true
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				var id *ast.Ident
				switch fun := ast.Unparen(call.Fun).(type) {
				case *ast.Ident:
					id = fun
				case *ast.SelectorExpr:
					id = fun.Sel
				case *ast.IndexExpr: // an instantiation, call[R]
					id, _ = fun.X.(*ast.Ident)
				}
				fn, ok := p.TypesInfo.Uses[id].(*types.Func)
				if id == nil || !ok || fn.Pkg() != p.Types {
					return true
				}
				to, ok := stage[filepath.Base(p.Fset.Position(fn.Pos()).Filename)]
				if !ok {
					return true
				}
				edges++
				if to < from {
					t.Errorf("%s: %s calls %s of %s, back up the path", p.Fset.Position(call.Pos()), fd.Name.Name, fn.Name(), connStages[to])
				}
				return true
			})
		}
	}
	for _, name := range connStages {
		if !seen[name] {
			t.Errorf("generated/acpv2 has no %s", name)
		}
	}
	if edges < 20 {
		t.Errorf("%d calls between the stages: the walk found too few to mean anything", edges)
	}
}
