package pipeline

import (
	"errors"
	"fmt"
	"go/ast"
	"go/build/constraint"
	"go/parser"
	"go/token"
	"go/types"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"golang.org/x/tools/go/packages"
)

// checkPackages type-checks every package of the module in dir once for each
// build tag set in tagSets ("" for none, as for go build -tags), as Go 1.22
// does, and reports each package's first errors. The imports from outside
// the module are read from export data by one go/packages load; the
// packages of the module are parsed once and checked in parallel, those
// that import others of the module (the convert package) after them,
// against what they were checked to be under the same tags.
func checkPackages(t *testing.T, dir string, tagSets []string) {
	t.Helper()
	fset := token.NewFileSet()
	pkgs, err := parseModule(fset, dir)
	if err != nil {
		t.Fatal(err)
	}
	module, err := modulePath(dir)
	if err != nil {
		t.Fatal(err)
	}
	leaves, dependents, imports := splitPackages(pkgs, module)
	deps, err := loadImports(dir, imports)
	if err != nil {
		t.Fatal(err)
	}

	var failures []string
	for _, tags := range tagSets {
		checked := map[string]*types.Package{}
		var mu sync.Mutex
		importer := importerFunc(func(path string) (*types.Package, error) {
			mu.Lock()
			defer mu.Unlock()
			if p := checked[path]; p != nil {
				return p, nil
			}
			if p := deps[path]; p != nil {
				return p, nil
			}
			return nil, fmt.Errorf("package %s is not among the loaded imports", path)
		})
		for _, batch := range [][]*parsedPackage{leaves, dependents} {
			jobs := make(chan *parsedPackage)
			var wg sync.WaitGroup
			for range runtime.GOMAXPROCS(0) {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for p := range jobs {
						typed, errs := p.check(fset, importer, tags)
						mu.Lock()
						checked[p.path] = typed
						if len(errs) > 0 {
							failures = append(failures, fmt.Sprintf("-tags=%q: %s:\n\t%s", tags, p.dir, strings.Join(errs, "\n\t")))
						}
						mu.Unlock()
					}
				}()
			}
			for _, p := range batch {
				jobs <- p
			}
			close(jobs)
			wg.Wait()
		}
	}
	sort.Strings(failures)
	for _, f := range failures {
		t.Error(f)
	}
}

// splitPackages names the packages of the module, and parts them into
// those that import no other package of the module (leaves) and those that
// do; it returns the imports from outside the module too.
func splitPackages(pkgs []*parsedPackage, module string) (leaves, dependents []*parsedPackage, imports map[string]bool) {
	local := map[string]bool{}
	for _, p := range pkgs {
		p.path = module + "/" + p.dir
		local[p.path] = true
	}
	imports = map[string]bool{}
	for _, p := range pkgs {
		dependent := false
		for _, f := range p.files {
			for _, spec := range f.syntax.Imports {
				path, _ := strconv.Unquote(spec.Path.Value)
				if local[path] {
					dependent = true
				} else {
					imports[path] = true
				}
			}
		}
		if dependent {
			dependents = append(dependents, p)
		} else {
			leaves = append(leaves, p)
		}
	}
	return leaves, dependents, imports
}

// modulePath reads the module path of the go.mod in dir.
func modulePath(dir string) (string, error) {
	data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		return "", err
	}
	for _, line := range strings.Split(string(data), "\n") {
		if path, ok := strings.CutPrefix(strings.TrimSpace(line), "module "); ok {
			return strings.TrimSpace(path), nil
		}
	}
	return "", errors.New("go.mod names no module")
}

type parsedPackage struct {
	dir   string // slash-separated, relative to the module root
	path  string // import path, set by checkPackages
	files []parsedFile
}

type parsedFile struct {
	syntax *ast.File
	build  constraint.Expr // nil without a //go:build line
}

// parseModule parses the Go files of every directory under dir, test files
// of the package itself included (not those of an external _test package).
func parseModule(fset *token.FileSet, dir string) ([]*parsedPackage, error) {
	byDir := map[string]*parsedPackage{}
	err := fs.WalkDir(os.DirFS(dir), ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(name, ".go") {
			return err
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		if strings.HasSuffix(f.Name.Name, "_test") {
			return nil
		}
		pf := parsedFile{syntax: f}
		for _, g := range f.Comments {
			if g.Pos() > f.Package {
				break
			}
			for _, c := range g.List {
				if constraint.IsGoBuild(c.Text) {
					if pf.build, err = constraint.Parse(c.Text); err != nil {
						return fmt.Errorf("%s: %w", name, err)
					}
				}
			}
		}
		pkgDir := path.Dir(name)
		if byDir[pkgDir] == nil {
			byDir[pkgDir] = &parsedPackage{dir: pkgDir}
		}
		byDir[pkgDir].files = append(byDir[pkgDir].files, pf)
		return nil
	})
	if err != nil {
		return nil, err
	}
	var out []*parsedPackage
	for _, p := range byDir {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].dir < out[j].dir })
	return out, nil
}

// check type-checks the files that the build tags in tags (comma-separated)
// select and returns the package and the first errors.
func (p *parsedPackage) check(fset *token.FileSet, importer types.Importer, tags string) (*types.Package, []string) {
	on := map[string]bool{runtime.GOOS: true, runtime.GOARCH: true}
	for _, tag := range strings.Split(tags, ",") {
		on[tag] = true
	}
	var files []*ast.File
	for _, f := range p.files {
		if f.build == nil || f.build.Eval(func(tag string) bool { return on[tag] }) {
			files = append(files, f.syntax)
		}
	}
	var errs []string
	conf := types.Config{
		Importer:  importer,
		GoVersion: "go1.22",
		Error: func(err error) {
			if len(errs) < 10 {
				errs = append(errs, err.Error())
			}
		},
	}
	typed, err := conf.Check(p.path, fset, files, nil)
	if err != nil && len(errs) == 0 {
		errs = append(errs, err.Error())
	}
	return typed, errs
}

// loadImports returns the types of the packages in imports, and of their
// dependencies, read from export data in the module at dir.
func loadImports(dir string, imports map[string]bool) (map[string]*types.Package, error) {
	var patterns []string
	for p := range imports {
		patterns = append(patterns, p)
	}
	sort.Strings(patterns)
	cfg := &packages.Config{
		Mode: packages.NeedName | packages.NeedTypes | packages.NeedImports | packages.NeedDeps,
		Dir:  dir,
		// The decoder module comes from the module cache: no network.
		Env: append(os.Environ(), "GOTOOLCHAIN=local", "GOFLAGS=-mod=mod", "GOPROXY=off"),
	}
	roots, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil, err
	}
	out := map[string]*types.Package{}
	var errs []error
	packages.Visit(roots, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			errs = append(errs, e)
		}
		out[p.PkgPath] = p.Types
	})
	return out, errors.Join(errs...)
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }
