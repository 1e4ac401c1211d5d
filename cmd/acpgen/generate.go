package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/acpgen/acpgen/gen/diag"
	"github.com/acpgen/acpgen/gen/ir"
	"github.com/acpgen/acpgen/gen/pipeline"
	"github.com/acpgen/acpgen/gen/write"
	"github.com/acpgen/acpgen/schema"
)

// generate writes the packages, or with -check compares them.
func generate(args []string, stdout io.Writer) error {
	fl := flag.NewFlagSet("acpgen", flag.ContinueOnError)
	schemaDir := fl.String("schema", "", "directory with the schema files (default: the pinned copy built in)")
	out := fl.String("out", "generated", "output directory; one package per protocol version is written below it, or with -package the package itself")
	check := fl.Bool("check", false, "write nothing; print the difference and exit 1 if the output is stale")
	version := fl.String("version", "all", "protocol versions to generate: "+strings.Join(ir.VersionNames(), ", ")+" or all")
	pkg := fl.String("package", "", "with one -version: the package name, written directly into -out")
	features := fl.String("features", "all", "unstable features that get code: all, none, or a comma-separated list (\"unstable\" for items of no known feature)")
	bake := fl.Bool("bake", false, "compile the selected unstable features in without build tags")
	tests := fl.Bool("tests", false, "also generate the test files that acpgen's own tests of a generated package read (a table of its definitions)")
	config := fl.String("config", "", "JSON file with any of the options above; flags on the command line take precedence")
	prune := fl.Bool("prune", false, "also remove generated packages under -out that this run does not produce (a version the schema directory lacks)")
	if err := fl.Parse(args); err != nil {
		return exitCode(2)
	}
	if fl.NArg() > 0 {
		return usage(fmt.Errorf("unexpected argument %q", fl.Arg(0)))
	}
	command := commandLine(fl)
	if *config != "" {
		if err := applyConfig(fl, *config); err != nil {
			return usage(err)
		}
	}
	opts := pipeline.Options{Package: *pkg, Tests: *tests, Command: command, Generator: pipeline.GeneratorVersion()}
	switch {
	case *version == "all":
	case slices.Contains(ir.VersionNames(), *version):
		opts.Versions = []string{*version}
	default:
		return usage(fmt.Errorf("-version %q: want %s or all", *version, strings.Join(ir.VersionNames(), ", ")))
	}
	sel, err := pipeline.ParseFeatures(*features, *bake)
	if err != nil {
		return usage(err)
	}
	opts.Select = sel
	if opts.ImportPath, err = importPath(*out); err != nil {
		return err
	}
	if opts.ImportPath == "" && *pkg == "" && *version == "all" {
		fmt.Fprintf(os.Stderr, "acpgen: no go.mod above %s: the convert package, which imports the versions by path, is not generated\n", *out)
	}
	var fsys fs.FS = schema.FS
	if *schemaDir != "" {
		fsys = os.DirFS(*schemaDir)
	}
	gen, err := pipeline.GenerateWith(fsys, opts)
	if errors.As(err, new(*pipeline.UsageError)) {
		return usage(err)
	}
	if err != nil {
		// Problems name their files from the schema directory, as editors
		// open them.
		for _, e := range diag.All(err) {
			if *schemaDir != "" && e.File != "" {
				e.File = filepath.Join(*schemaDir, filepath.FromSlash(e.File))
			}
		}
		return err
	}
	for _, w := range gen.Warnings {
		fmt.Fprintln(os.Stderr, "acpgen: warning:", w)
	}
	if *check {
		changes, err := write.Options{Prune: *prune}.Changes(*out, gen.Files)
		if err != nil {
			return err
		}
		if len(changes) > 0 {
			fmt.Fprint(stdout, write.Diff(changes))
			fmt.Fprintf(os.Stderr, "acpgen: %d generated file(s) under %s are stale; run acpgen to regenerate\n", len(changes), *out)
			return exitCode(1)
		}
		return nil
	}
	changes, err := write.Options{Prune: *prune}.Write(*out, gen.Files)
	if err != nil {
		return err
	}
	for _, c := range changes {
		verb := "wrote"
		if c.New == nil {
			verb = "removed"
		}
		fmt.Fprintln(os.Stderr, "acpgen:", verb, c.Path)
	}
	return nil
}
