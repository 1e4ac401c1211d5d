package pipeline

import (
	"go/ast"
	"go/parser"
	"go/token"
	"sort"
	"testing"

	"github.com/acpgen/acpgen/gen/emit"
	"github.com/acpgen/acpgen/gen/names"
	"github.com/acpgen/acpgen/gen/write"
	"github.com/acpgen/acpgen/schema"
)

// TestClaimsCoverOutput generates the pinned packages and checks that the
// naming stage claimed every identifier they declare: each name of the
// package block, and each method of a schema type. A name the emitter or a
// template starts to declare without names knowing it fails here.
func TestClaimsCoverOutput(t *testing.T) {
	versions, err := Versions(schema.FS)
	if err != nil {
		t.Fatal(err)
	}
	features, err := Features(schema.FS)
	if err != nil {
		t.Fatal(err)
	}
	removed, err := Removed(schema.FS)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range versions {
		p, _, err := Build(schema.FS, v, features[v.Name], removed[v.Name])
		if err != nil {
			t.Fatal(err)
		}
		top, members, err := names.Claims(p)
		if err != nil {
			t.Fatal(err)
		}
		files, err := write.Render(v.Package, emit.Files(p))
		if err != nil {
			t.Fatal(err)
		}
		var unclaimed []string
		for name, src := range files {
			f, err := parser.ParseFile(token.NewFileSet(), name, src, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range f.Decls {
				switch d := d.(type) {
				case *ast.FuncDecl:
					switch {
					case d.Recv == nil:
						if d.Name.Name != "init" && top[d.Name.Name] == "" {
							unclaimed = append(unclaimed, name+": func "+d.Name.Name)
						}
					default:
						recv := names.ReceiverName(d.Recv.List[0].Type)
						if m, ok := members[recv]; ok && m[d.Name.Name] == "" {
							unclaimed = append(unclaimed, name+": method "+recv+"."+d.Name.Name)
						}
					}
				case *ast.GenDecl:
					for _, spec := range d.Specs {
						var ids []*ast.Ident
						switch s := spec.(type) {
						case *ast.TypeSpec:
							ids = []*ast.Ident{s.Name}
						case *ast.ValueSpec:
							ids = s.Names
						}
						for _, id := range ids {
							if id.Name != "_" && top[id.Name] == "" {
								unclaimed = append(unclaimed, name+": "+id.Name)
							}
						}
					}
				}
			}
		}
		sort.Strings(unclaimed)
		for _, u := range unclaimed {
			t.Errorf("%s: %s is declared but names never claimed it", v.Name, u)
		}
	}
}
