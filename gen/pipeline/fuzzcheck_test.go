package pipeline

import (
	"go/ast"
	"go/build/constraint"
	"go/parser"
	"go/token"
	"go/types"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"golang.org/x/tools/go/packages"
)

// typeCheck type-checks each generated package with the files that the
// build tags select, in process.
func typeCheck(t *testing.T, files map[string][]byte, tags string) {
	t.Helper()
	byPkg := map[string][]string{}
	for name := range files {
		pkg, _, _ := strings.Cut(name, "/")
		byPkg[pkg] = append(byPkg[pkg], name)
	}
	for pkg, names := range byPkg {
		sort.Strings(names)
		fset := token.NewFileSet()
		var parsed []*ast.File
		for _, name := range names {
			f, err := parser.ParseFile(fset, name, files[name], parser.ParseComments)
			if err != nil {
				t.Fatalf("generated file does not parse: %v", err)
			}
			if selected(f, tags) {
				parsed = append(parsed, f)
			}
		}
		conf := types.Config{Importer: importerFor(t, parsed)}
		if _, err := conf.Check(pkg, fset, parsed, nil); err != nil {
			t.Fatalf("-tags=%q: generated %s does not compile: %v", tags, pkg, err)
		}
	}
}

// selected reports whether f's build constraint holds with the tags set.
func selected(f *ast.File, tags string) bool {
	for _, cg := range f.Comments {
		if cg.Pos() >= f.Package {
			break
		}
		for _, c := range cg.List {
			if constraint.IsGoBuild(c.Text) {
				expr, err := constraint.Parse(c.Text)
				if err != nil {
					return false
				}
				return expr.Eval(func(tag string) bool { return tag == tags })
			}
		}
	}
	return true
}

// deps caches the type information of the packages generated code imports
// (roots) and of theirs.
var deps = struct {
	sync.Mutex
	roots []string
	pkgs  map[string]*types.Package
}{pkgs: map[string]*types.Package{}}

// importerFor loads, with the go command, the packages the files import,
// and returns an importer of them. When some import is new, every import
// seen so far is loaded again in one go: packages of separate loads do not
// share their dependencies (two reflect packages, whose Types differ).
func importerFor(t *testing.T, files []*ast.File) types.Importer {
	t.Helper()
	deps.Lock()
	defer deps.Unlock()
	var missing []string
	for _, f := range files {
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if deps.pkgs[p] == nil && !slices.Contains(missing, p) {
				missing = append(missing, p)
			}
		}
	}
	if len(missing) > 0 {
		deps.roots = append(deps.roots, missing...)
		loaded, err := packages.Load(&packages.Config{Mode: packages.NeedName | packages.NeedTypes | packages.NeedImports | packages.NeedDeps}, deps.roots...)
		if err != nil {
			t.Fatal(err)
		}
		deps.pkgs = map[string]*types.Package{}
		packages.Visit(loaded, nil, func(p *packages.Package) {
			if p.Types != nil {
				deps.pkgs[p.PkgPath] = p.Types
			}
		})
	}
	pkgs := make(map[string]*types.Package, len(deps.pkgs))
	for k, v := range deps.pkgs {
		pkgs[k] = v
	}
	return importerFunc(func(path string) (*types.Package, error) {
		if p := pkgs[path]; p != nil {
			return p, nil
		}
		return nil, &types.Error{Msg: "package " + path + " not loaded"}
	})
}
