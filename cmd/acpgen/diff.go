package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/acpgen/acpgen/gen/api"
	"github.com/acpgen/acpgen/gen/pipeline"
)

// diff prints the unstable surface of one generated package, or the API
// change between two schema revisions.
func diff(args []string, stdout io.Writer) error {
	fl := flag.NewFlagSet("acpgen diff", flag.ContinueOnError)
	asJSON := fl.Bool("json", false, "print JSON instead of text")
	exit := fl.Bool("exit-code", false, "exit with status 1 when there are differences")
	if err := fl.Parse(args); err != nil {
		return exitCode(2)
	}
	var changes []api.Change
	switch fl.NArg() {
	case 1:
		lines, err := api.Tagged(fl.Arg(0))
		if err != nil {
			return err
		}
		changes = api.Unstable(lines)
	case 2:
		old, err := revisionSurface(fl.Arg(0))
		if err != nil {
			return err
		}
		new, err := revisionSurface(fl.Arg(1))
		if err != nil {
			return err
		}
		changes = api.Diff(old, new)
	default:
		return fmt.Errorf("diff: give a generated package directory, or two schema directories")
	}
	if err := api.Write(stdout, changes, *asJSON); err != nil {
		return err
	}
	if *exit && len(changes) > 0 {
		return exitCode(1)
	}
	return nil
}

// revisionSurface generates the packages of a schema revision and returns
// their surfaces, all packages together. dir is a schema directory, or an
// unpacked npm package (with package/schema or schema inside).
func revisionSurface(dir string) ([]api.Line, error) {
	for _, sub := range []string{"package/schema", "schema"} {
		if st, err := os.Stat(filepath.Join(dir, sub)); err == nil && st.IsDir() {
			dir = filepath.Join(dir, sub)
			break
		}
	}
	gen, err := pipeline.Generate(os.DirFS(dir))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	surfaces, err := api.Generated(gen.Files)
	if err != nil {
		return nil, err
	}
	var all []api.Line
	for _, pkg := range api.Packages(surfaces) {
		all = append(all, surfaces[pkg]...)
	}
	return all, nil
}
