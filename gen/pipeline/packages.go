package pipeline

import (
	"io/fs"

	"github.com/acpgen/acpgen/gen/ir"
)

// Packages builds the package of every version in fsys, with Go names and
// features assigned, without emitting code: what the compatibility report
// compares. It maps the version ("v1") to its package.
func Packages(fsys fs.FS) (map[string]*ir.Package, error) {
	in, err := readInputs(fsys)
	if err != nil {
		return nil, err
	}
	out := map[string]*ir.Package{}
	for _, v := range in.versions {
		p, _, err := in.build(fsys, v)
		if err != nil {
			return nil, err
		}
		out[v.Name] = p
	}
	return out, nil
}

// inputs are what Build takes from a schema directory besides a version:
// its versions, and the feature map and removed definitions of each.
type inputs struct {
	versions []Version
	features map[string]ir.FeatureMap
	removed  map[string]map[string]string
}

// readInputs reads the inputs of Build from fsys.
func readInputs(fsys fs.FS) (inputs, error) {
	var in inputs
	var err error
	if in.versions, err = Versions(fsys); err != nil {
		return in, err
	}
	if in.features, err = Features(fsys); err != nil {
		return in, err
	}
	in.removed, err = Removed(fsys)
	return in, err
}

// build builds version v of fsys.
func (in inputs) build(fsys fs.FS, v Version) (*ir.Package, []string, error) {
	return Build(fsys, v, in.features[v.Name], in.removed[v.Name])
}
