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
	f, err := parseGenerate(args)
	if err != nil {
		return err
	}
	opts, err := f.options()
	if err != nil {
		return err
	}
	var fsys fs.FS = schema.FS
	if *f.schemaDir != "" {
		fsys = os.DirFS(*f.schemaDir)
	}
	gen, err := pipeline.GenerateWith(fsys, opts)
	if errors.As(err, new(*pipeline.UsageError)) {
		return usage(err)
	}
	if err != nil {
		// Problems name their files from the schema directory, as editors
		// open them.
		for _, e := range diag.All(err) {
			if *f.schemaDir != "" && e.File != "" {
				e.File = filepath.Join(*f.schemaDir, filepath.FromSlash(e.File))
			}
		}
		return err
	}
	for _, w := range gen.Warnings {
		fmt.Fprintln(os.Stderr, "acpgen: warning:", w)
	}
	if *f.check {
		return checkFiles(*f.out, gen.Files, *f.prune, stdout)
	}
	return writeFiles(*f.out, gen.Files, *f.prune)
}

// generateFlags are the flags of the generate command.
type generateFlags struct {
	schemaDir, out, version, pkg, features *string
	check, bake, tests, prune              *bool
	// command is the command line, for the provenance header.
	command string
}

// parseGenerate parses the generate command's flags, then the -config
// file's options where no flag set them.
func parseGenerate(args []string) (*generateFlags, error) {
	fl := flag.NewFlagSet("acpgen", flag.ContinueOnError)
	f := &generateFlags{
		schemaDir: fl.String("schema", "", "directory with the schema files (default: the pinned copy built in)"),
		out:       fl.String("out", "generated", "output directory; one package per protocol version is written below it, or with -package the package itself"),
		check:     fl.Bool("check", false, "write nothing; print the difference and exit 1 if the output is stale"),
		version:   fl.String("version", "all", "protocol versions to generate: "+strings.Join(ir.VersionNames(), ", ")+" or all"),
		pkg:       fl.String("package", "", "with one -version: the package name, written directly into -out"),
		features:  fl.String("features", "all", "unstable features that get code: all, none, or a comma-separated list (\"unstable\" for items of no known feature)"),
		bake:      fl.Bool("bake", false, "compile the selected unstable features in without build tags"),
		tests:     fl.Bool("tests", false, "also generate the test files that acpgen's own tests of a generated package read (a table of its definitions)"),
	}
	config := fl.String("config", "", "JSON file with any of the options above; flags on the command line take precedence")
	f.prune = fl.Bool("prune", false, "also remove generated packages under -out that this run does not produce (a version the schema directory lacks)")
	if err := fl.Parse(args); err != nil {
		return nil, exitCode(2)
	}
	if fl.NArg() > 0 {
		return nil, usage(fmt.Errorf("unexpected argument %q", fl.Arg(0)))
	}
	f.command = commandLine(fl)
	if *config != "" {
		if err := applyConfig(fl, *config); err != nil {
			return nil, usage(err)
		}
	}
	return f, nil
}

// options returns the pipeline's options for the flags.
func (f *generateFlags) options() (pipeline.Options, error) {
	opts := pipeline.Options{Package: *f.pkg, Tests: *f.tests, Command: f.command, Generator: pipeline.GeneratorVersion()}
	switch {
	case *f.version == "all":
	case slices.Contains(ir.VersionNames(), *f.version):
		opts.Versions = []string{*f.version}
	default:
		return opts, usage(fmt.Errorf("-version %q: want %s or all", *f.version, strings.Join(ir.VersionNames(), ", ")))
	}
	sel, err := pipeline.ParseFeatures(*f.features, *f.bake)
	if err != nil {
		return opts, usage(err)
	}
	opts.Select = sel
	if opts.ImportPath, err = importPath(*f.out); err != nil {
		return opts, err
	}
	if opts.ImportPath == "" && *f.pkg == "" && *f.version == "all" {
		fmt.Fprintf(os.Stderr, "acpgen: no go.mod above %s: the convert package, which imports the versions by path, is not generated\n", *f.out)
	}
	return opts, nil
}

// checkFiles prints the difference between files and what is under out,
// and fails with exit code 1 when there is one.
func checkFiles(out string, files map[string][]byte, prune bool, stdout io.Writer) error {
	changes, err := write.Options{Prune: prune}.Changes(out, files)
	if err != nil {
		return err
	}
	if len(changes) > 0 {
		fmt.Fprint(stdout, write.Diff(changes))
		fmt.Fprintf(os.Stderr, "acpgen: %d generated file(s) under %s are stale; run acpgen to regenerate\n", len(changes), out)
		return exitCode(1)
	}
	return nil
}

// writeFiles writes files under out and says what changed.
func writeFiles(out string, files map[string][]byte, prune bool) error {
	changes, err := write.Options{Prune: prune}.Write(out, files)
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
