package pipeline

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io/fs"
	"runtime/debug"
	"strings"

	"golang.org/x/mod/modfile"

	"github.com/acpgen/acpgen/schema"
)

// GeneratorVersion returns the module path and version of the running
// generator from its build information: "github.com/acpgen/acpgen v1.2.0",
// or "(devel)" as the version of a build from a source tree (a checkout, or
// a module replaced by a directory).
func GeneratorVersion() string {
	const module = "github.com/acpgen/acpgen"
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return module + " (unknown)"
	}
	mods := append([]*debug.Module{&bi.Main}, bi.Deps...)
	for _, m := range mods {
		if m.Path != module {
			continue
		}
		if r := m.Replace; r != nil {
			// A directory is no version, and its path is the machine's.
			if r.Version == "" || r.Version == "(devel)" || modfile.IsDirectoryPath(r.Path) {
				return module + " (devel)"
			}
			return module + " " + m.Version + " => " + r.Path + " " + r.Version
		}
		if m.Version == "" {
			return module + " (devel)"
		}
		return module + " " + m.Version
	}
	return module + " (devel)"
}

// provenance returns the header lines that say what made the files of
// version v: the generator, the command line, and the schema files read —
// by npm package version when provenance.json vouches for every one of them
// (its sha256 matches), else by their own sha256. Nothing in them depends on
// the machine or the time.
func provenance(fsys fs.FS, v Version, o *Options) (string, error) {
	var lines []string
	if o.Generator != "" {
		lines = append(lines, "Generator: "+o.Generator)
	}
	if o.Command != "" {
		lines = append(lines, "Command: "+o.Command)
	}
	var files []string
	for _, name := range []string{v.Stable, v.Unstable} {
		if name != "" {
			files = append(files, name)
		}
	}
	sums := map[string]string{}
	sha := func(name string) error {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(data)
		sums[name] = hex.EncodeToString(sum[:])
		return nil
	}
	for _, name := range files {
		if err := sha(name); err != nil {
			return "", err
		}
	}
	// The feature and removal maps count as input when the schema directory
	// has its own; the pinned ones are part of the generator.
	var extras []string
	for _, name := range []string{"features.json", "removed.json"} {
		if _, err := fs.Stat(fsys, name); err == nil && fsys != fs.FS(schema.FS) {
			if err := sha(name); err != nil {
				return "", err
			}
			extras = append(extras, name)
		}
	}
	var p struct {
		Package, Version string
		Files            map[string]string
	}
	data, err := fs.ReadFile(fsys, "provenance.json")
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", err
	}
	vouched := err == nil && json.Unmarshal(data, &p) == nil && p.Package != "" && p.Version != ""
	for _, name := range files {
		vouched = vouched && p.Files[name] == sums[name]
	}
	if vouched {
		lines = append(lines, "Schema: "+p.Package+" "+p.Version+", "+strings.Join(files, " and "))
		files = nil
	} else {
		lines = append(lines, "Schema files:")
	}
	for _, name := range append(files, extras...) {
		lines = append(lines, "  "+name+" sha256:"+sums[name])
	}
	return strings.Join(lines, "\n"), nil
}
