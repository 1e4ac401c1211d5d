package pipeline

import (
	"io/fs"

	"github.com/acpgen/acpgen/gen/ir"
)

// Packages builds the package of every version in fsys, with Go names and
// features assigned, without emitting code: what the compatibility report
// compares. It maps the version ("v1") to its package.
func Packages(fsys fs.FS) (map[string]*ir.Package, error) {
	versions, err := Versions(fsys)
	if err != nil {
		return nil, err
	}
	features, err := Features(fsys)
	if err != nil {
		return nil, err
	}
	removed, err := Removed(fsys)
	if err != nil {
		return nil, err
	}
	out := map[string]*ir.Package{}
	for _, v := range versions {
		p, _, err := Build(fsys, v, features[v.Name], removed[v.Name])
		if err != nil {
			return nil, err
		}
		out[v.Name] = p
	}
	return out, nil
}
