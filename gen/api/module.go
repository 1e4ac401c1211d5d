package api

import (
	"os"
	"path"
	"path/filepath"
	"sort"

	"github.com/acpgen/acpgen/templates"
)

// generatedSurfaces returns the tagged surface of each package among files (paths
// such as "acpv1/types.go"), by laying them out as a module in a temporary
// directory and loading it.
func generatedSurfaces(files map[string][]byte) (map[string][]Line, error) {
	dir, err := os.MkdirTemp("", "acpgen-api-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	gomod, gosum := templates.Module("acpgen.example/surface", "1.22")
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), gomod, 0o644); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, "go.sum"), gosum, 0o644); err != nil {
		return nil, err
	}
	pkgs := map[string]bool{}
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			return nil, err
		}
		pkgs[path.Dir(name)] = true
	}
	out := map[string][]Line{}
	for pkg := range pkgs {
		lines, err := Tagged(filepath.Join(dir, filepath.FromSlash(pkg)))
		if err != nil {
			return nil, err
		}
		out[pkg] = lines
	}
	return out, nil
}

// packagesOf returns the keys of a surface map, sorted.
func packagesOf(m map[string][]Line) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
