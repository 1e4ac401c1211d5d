package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/acpgen/acpgen/gen/api"
	"github.com/acpgen/acpgen/gen/ir"
	"github.com/acpgen/acpgen/gen/pipeline"
)

// diff prints the unstable surface of one generated package, or the
// compatibility report between two schema revisions, of the versions and
// features selected.
func diff(args []string, stdout io.Writer) error {
	fl := newFlagSet("diff")
	asJSON := fl.Bool("json", false, `print JSON instead of text: {"breaking", "summary", "findings"}`)
	exit := fl.Bool("exit-code", false, "exit with status 1 when there are differences")
	breaking := fl.Bool("breaking", false, "with two schema directories: exit with status 1 when a change breaks Go code or the wire")
	version := fl.String("version", "all", "with two schema directories: the protocol version to compare: "+strings.Join(ir.VersionNames(), ", ")+" or all")
	features := fl.String("features", "all", "the unstable features whose items count: all, none (stable items only), or a comma-separated list of feature tags, as generate takes them")
	if err := parseFlags(fl, args); err != nil {
		return err
	}
	if *version != "all" && !slices.Contains(ir.VersionNames(), *version) {
		return usage(fmt.Errorf("diff: -version %q: want %s or all", *version, strings.Join(ir.VersionNames(), ", ")))
	}
	sel, err := pipeline.ParseFeatures(*features, false)
	if err != nil {
		return usage(err)
	}
	keep, all := []string(nil), sel == nil
	if sel != nil {
		keep = sel.Features
	}
	switch fl.NArg() {
	case 1:
		lines, err := api.Tagged(fl.Arg(0))
		if err != nil {
			return err
		}
		changes := api.FilterLines(api.Unstable(lines), keep, all)
		if err := api.Write(stdout, changes, *asJSON); err != nil {
			return err
		}
		if !*asJSON {
			if err := api.WriteSurfaceSummary(stdout, changes); err != nil {
				return err
			}
		}
		if *exit && len(changes) > 0 {
			return exitCode(1)
		}
		return nil
	case 2:
		findings, err := compare(fl.Arg(0), fl.Arg(1))
		if err != nil {
			return err
		}
		if *version == "all" {
			*version = ""
		}
		findings = api.Filter(findings, *version, keep, all)
		if err := api.WriteReport(stdout, findings, *asJSON); err != nil {
			return err
		}
		if (*exit && len(findings) > 0) || (*breaking && api.Breaking(findings)) {
			return exitCode(1)
		}
		return nil
	}
	return usage(fmt.Errorf("diff: give a generated package directory, or two schema directories (acpgen help diff)"))
}

// compare returns the sorted findings between the schema revisions in
// directories old and new.
func compare(old, new string) ([]api.Finding, error) {
	a, err := revisionPackages(old)
	if err != nil {
		return nil, err
	}
	b, err := revisionPackages(new)
	if err != nil {
		return nil, err
	}
	return comparePackages(a, b), nil
}

// comparePackages returns the sorted findings between the packages of two
// revisions, by version.
func comparePackages(a, b map[string]*ir.Package) []api.Finding {
	var out []api.Finding
	for _, v := range ir.VersionNames() {
		out = append(out, api.Compare(v, a[v], b[v])...)
	}
	api.SortFindings(out)
	return out
}

// revisionPackages builds the packages of a schema revision. dir is a
// schema directory, or an unpacked npm package (with package/schema or
// schema inside).
func revisionPackages(dir string) (map[string]*ir.Package, error) {
	for _, sub := range []string{"package/schema", "schema"} {
		if st, err := os.Stat(filepath.Join(dir, sub)); err == nil && st.IsDir() {
			dir = filepath.Join(dir, sub)
			break
		}
	}
	pkgs, err := pipeline.Packages(os.DirFS(dir))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	return pkgs, nil
}
