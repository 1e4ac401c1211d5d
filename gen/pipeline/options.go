package pipeline

import (
	"fmt"
	"go/token"
	"slices"
	"sort"
	"strings"

	"github.com/acpgen/acpgen/gen/ir"
)

// Options choose what GenerateWith produces. The zero value generates every
// protocol version of the schema, each in a package of its own (acpv1,
// acpv2), with every unstable feature behind its build tag.
type Options struct {
	// Versions are the protocol versions to generate ("v1", "v2"); nil
	// means every version the schema has.
	Versions []string
	// Package, with exactly one version, names its package and puts its
	// files at the root of the output instead of in a directory of their own.
	Package string
	// Select chooses the unstable features that get code and whether they
	// keep their build tags; nil keeps every feature behind its tag.
	Select *ir.Selection
	// ImportPath is the import path of the output directory. When it is set
	// and both v1 and v2 are generated, the output gets the convert package,
	// which imports the two.
	ImportPath string
	// Tests generates the test files that acpgen's own tests of the
	// generated packages use (the table of definitions by schema name);
	// without it a package has no _test.go file.
	Tests bool
	// Generator and Command go into each file's header: the generator's
	// module version and the command line that ran it.
	Generator, Command string
}

// UsageError reports options that cannot work together or do not fit the
// schema; nothing is generated.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

func usagef(format string, args ...any) error {
	return &UsageError{Msg: fmt.Sprintf(format, args...)}
}

// ParseFeatures reads a -features value: "all", "none", or a comma-separated
// list of feature names, in which "unstable" stands for the items of no
// known feature.
func ParseFeatures(s string, bake bool) (*ir.Selection, error) {
	switch s {
	case "all":
		if !bake {
			return nil, nil
		}
		return &ir.Selection{All: true, Bake: true}, nil
	case "none":
		return &ir.Selection{Features: []string{}, Bake: bake}, nil
	}
	var list []string
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" || f == "all" || f == "none" {
			return nil, usagef("-features: %q: want all, none, or a comma-separated list of feature names", s)
		}
		list = append(list, f)
	}
	sort.Strings(list)
	return &ir.Selection{Features: slices.Compact(list), Bake: bake}, nil
}

// resolve checks the options against the schema's versions and feature map
// and returns the versions to generate.
func (o *Options) resolve(all []Version, features map[string]ir.FeatureMap) ([]Version, error) {
	var out []Version
	if len(o.Versions) == 0 {
		out = all
	}
	for _, name := range o.Versions {
		i := slices.IndexFunc(all, func(v Version) bool { return v.Name == name })
		if i < 0 {
			var have []string
			for _, v := range all {
				have = append(have, v.Name)
			}
			return nil, usagef("-version %s: the schema has %s only", name, strings.Join(have, " and "))
		}
		if !slices.ContainsFunc(out, func(v Version) bool { return v.Name == name }) {
			out = append(out, all[i])
		}
	}
	if o.Package != "" {
		if len(out) != 1 {
			return nil, usagef("-package %s needs exactly one -version; this run generates %d", o.Package, len(out))
		}
		if !token.IsIdentifier(o.Package) || token.IsKeyword(o.Package) || o.Package == "_" {
			return nil, usagef("-package %q is not a Go package name", o.Package)
		}
		out[0].Package = o.Package
	}
	if o.Select != nil {
		known := map[string]bool{ir.Umbrella: true}
		for _, fm := range features {
			for f := range fm {
				known[f] = true
			}
		}
		for _, f := range o.Select.Features {
			if !known[f] {
				var names []string
				for k := range known {
					names = append(names, k)
				}
				sort.Strings(names)
				return nil, usagef("-features: unknown feature %q; the features are %s", f, strings.Join(names, ", "))
			}
		}
	}
	return out, nil
}

// single reports whether the output is one package at its root.
func (o *Options) single() bool { return o.Package != "" }

// outPath returns where a file of version v's package goes in the output.
func (o *Options) outPath(v Version, name string) string {
	if o.single() {
		return name
	}
	return v.Package + "/" + name
}
