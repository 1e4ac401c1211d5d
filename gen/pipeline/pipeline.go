// Package pipeline runs the generator's stages in order: load → ir → names →
// emit. It returns the files in memory; package write puts them on disk.
package pipeline

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"

	"github.com/acpgen/acpgen/gen/emit"
	"github.com/acpgen/acpgen/gen/ir"
	"github.com/acpgen/acpgen/gen/load"
	"github.com/acpgen/acpgen/gen/names"
)

// Version is one protocol version found in a schema directory.
type Version struct {
	Name    string // "v1"
	Package string // Go package name, "acpv1"
	Stable  string // path of the stable schema file
}

// Versions lists the protocol versions in a schema directory: v1/ and v2/
// with schema.json each, or, as packages before 2.0 ship it, one schema.json
// taken as v1.
func Versions(fsys fs.FS) ([]Version, error) {
	var out []Version
	for _, v := range []string{"v1", "v2"} {
		if _, err := fs.Stat(fsys, path.Join(v, "schema.json")); err == nil {
			out = append(out, Version{Name: v, Package: "acp" + v, Stable: path.Join(v, "schema.json")})
		}
	}
	if len(out) == 0 {
		if _, err := fs.Stat(fsys, "schema.json"); err == nil {
			out = append(out, Version{Name: "v1", Package: "acpv1", Stable: "schema.json"})
		}
	}
	if len(out) == 0 {
		return nil, errors.New("no schema files: expected v1/schema.json, v2/schema.json or schema.json")
	}
	return out, nil
}

// Source describes where the files in fsys came from, from its
// provenance.json: "@agentclientprotocol/sdk 2.4.0".
func Source(fsys fs.FS) string {
	var p struct{ Package, Version string }
	data, err := fs.ReadFile(fsys, "provenance.json")
	if err != nil || json.Unmarshal(data, &p) != nil || p.Package == "" {
		return "the ACP schema"
	}
	return p.Package + " " + p.Version
}

// Generate returns the generated files for every version in fsys, keyed by
// slash-separated path relative to the output directory ("acpv1/types.go").
func Generate(fsys fs.FS) (map[string][]byte, error) {
	versions, err := Versions(fsys)
	if err != nil {
		return nil, err
	}
	out := map[string][]byte{}
	for _, v := range versions {
		files, err := Package(fsys, v)
		if err != nil {
			return nil, err
		}
		for name, data := range files {
			out[path.Join(v.Package, name)] = data
		}
	}
	return out, nil
}

// Package generates the files of one version's package.
func Package(fsys fs.FS, v Version) (map[string][]byte, error) {
	f, err := load.Load(fsys, v.Stable)
	if err != nil {
		return nil, err
	}
	p, err := ir.Build(f, ir.Options{Name: v.Package, Version: v.Name, Source: fmt.Sprintf("%s %s", Source(fsys), v.Stable)})
	if err != nil {
		return nil, err
	}
	if err := names.Assign(p); err != nil {
		return nil, fmt.Errorf("%s: %w", v.Stable, err)
	}
	return emit.Files(p)
}
