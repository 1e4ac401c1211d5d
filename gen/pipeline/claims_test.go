package pipeline

import (
	"go/ast"
	"go/parser"
	"go/token"
	"sort"
	"strings"
	"testing"

	"github.com/acpgen/acpgen/gen/emit"
	"github.com/acpgen/acpgen/gen/names"
	"github.com/acpgen/acpgen/schema"
)

// TestClaimsCoverOutput generates the pinned packages and checks that the
// naming stage claimed every identifier they declare: each name of the
// package block, and each method of a schema type. A name the emitter or a
// template starts to declare without names knowing it fails here.
func TestClaimsCoverOutput(t *testing.T) {
	in, err := readInputs(schema.FS)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range in.versions {
		p, _, err := in.build(schema.FS, v)
		if err != nil {
			t.Fatal(err)
		}
		top, members, err := names.Claims(p)
		if err != nil {
			t.Fatal(err)
		}
		files, err := emit.Render(v.Package, emit.Files(p))
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

// TestConvertClaimsCoverOutput generates the convert package of the pinned
// schemas, the bridge included, and checks that names claimed every
// top-level identifier it declares: the templates' (names.ConvertRuntime,
// each in its own file), the member-by-member conversions
// (names.ConvertFunc) and the emitter's helpers (names.ConvertHelpers).
func TestConvertClaimsCoverOutput(t *testing.T) {
	out, err := GenerateWith(schema.FS, Options{ImportPath: "example.com/m/acp"})
	if err != nil {
		t.Fatal(err)
	}
	v1, v2, _ := pinnedPair(t)
	claimed := map[string]map[string]bool{} // name → the files that may declare it
	claim := func(name, file string) {
		if claimed[name] == nil {
			claimed[name] = map[string]bool{}
		}
		claimed[name][file] = true
	}
	for _, n := range names.ConvertRuntime() {
		if n.Receiver == "" {
			claim(n.Name, n.File)
		}
	}
	for _, h := range names.ConvertHelpers {
		claim(h, "types.go")
	}
	converted := emit.Converted(v1, v2)
	for _, typ := range v1.Types {
		if converted[typ.Name] {
			claim(names.ConvertFunc(typ.GoName, true), "types.go")
			claim(names.ConvertFunc(typ.GoName, false), "types.go")
		}
	}
	var files int
	for name, src := range out.Files {
		file, ok := strings.CutPrefix(name, "convert/")
		if !ok {
			continue
		}
		files++
		f, err := parser.ParseFile(token.NewFileSet(), name, src, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, id := range declared(f, false) {
			if id != "_" && !claimed[id][file] {
				t.Errorf("%s: %s is declared but names never claimed it there", name, id)
			}
		}
	}
	if files < 12 {
		t.Errorf("%d files in the convert package, want the bridge's too", files)
	}
}
