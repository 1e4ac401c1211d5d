package pipeline

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"runtime/debug"
	"slices"
	"strings"

	"golang.org/x/mod/modfile"

	"github.com/acpgen/acpgen/gen/diag"
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
	p, err := ReadProvenance(fsys)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", diag.New("provenance.json", "", "%v", err)
	}
	vouched := err == nil
	if vouched {
		if problems := CheckProvenance(fsys, p, files, false); len(problems) > 0 {
			var l diag.List
			for _, e := range problems {
				l.Add(e)
			}
			return "", l.Err()
		}
	}
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

// Provenance is what provenance.json in a schema directory records of the
// npm package its files came from (acpgen fetch writes it; schema/ has one).
type Provenance struct {
	// Files maps each schema file's slash-separated path in the directory
	// (the package's schema/ folder) to its sha256, in hex.
	Files map[string]string `json:"files"`
	// Integrity is the npm tarball's integrity ("sha512-…" in base64).
	Integrity string `json:"integrity"`
	// License is the package's license.
	License string `json:"license,omitempty"`
	// Package and Version name the npm package and its version.
	Package string `json:"package"`
	Version string `json:"version"`
}

// ReadProvenance reads provenance.json from fsys; an error wrapping
// fs.ErrNotExist says there is none.
func ReadProvenance(fsys fs.FS) (Provenance, error) {
	var p Provenance
	data, err := fs.ReadFile(fsys, "provenance.json")
	if err != nil {
		return p, err
	}
	if err := json.Unmarshal(data, &p); err != nil {
		return p, fmt.Errorf("provenance.json is not valid: %v", err)
	}
	if p.Package == "" || p.Version == "" || len(p.Files) == 0 {
		return p, errors.New("provenance.json lacks the package, the version or the files")
	}
	return p, nil
}

// CheckProvenance returns a problem for each of names that provenance.json
// does not vouch for: a file whose sha256 differs from the recorded one, a
// file it does not list; and, when complete, for each file it lists that
// fsys lacks.
func CheckProvenance(fsys fs.FS, p Provenance, names []string, complete bool) []*diag.Error {
	var out []*diag.Error
	seen := map[string]bool{}
	for _, name := range names {
		seen[name] = true
		want, listed := p.Files[name]
		data, err := fs.ReadFile(fsys, name)
		switch {
		case err != nil:
			out = append(out, diag.New(name, "", "the file cannot be read: %v", err))
		case !listed:
			out = append(out, diag.New(name, "", "provenance.json (%s %s) does not list this file", p.Package, p.Version))
		case SHA256(data) != want:
			out = append(out, diag.New(name, "", "the file no longer matches provenance.json (%s %s): its sha256 is %s, not %s; fetch it again (acpgen fetch %s) or remove provenance.json", p.Package, p.Version, SHA256(data), want, p.Version))
		}
	}
	for _, name := range slices.Sorted(maps.Keys(p.Files)) {
		if _, err := fs.Stat(fsys, name); complete && err != nil && !seen[name] {
			out = append(out, diag.New(name, "", "provenance.json (%s %s) lists this file, which is missing", p.Package, p.Version))
		}
	}
	return out
}

// SHA256 returns the sha256 of data in hex.
func SHA256(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}
