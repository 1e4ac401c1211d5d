package main

import (
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/acpgen/acpgen/gen/diag"
	"github.com/acpgen/acpgen/gen/pipeline"
	"github.com/acpgen/acpgen/gen/write"
	"github.com/acpgen/acpgen/schema"
)

// generate writes the packages, or with -check compares them.
func generate(args []string, stdout io.Writer) error {
	fl := flag.NewFlagSet("acpgen", flag.ContinueOnError)
	schemaDir := fl.String("schema", "", "directory with the schema files (default: the pinned copy built in)")
	out := fl.String("out", "generated", "output directory; one package per protocol version is written below it")
	check := fl.Bool("check", false, "write nothing; print the difference and exit 1 if the output is stale")
	prune := fl.Bool("prune", false, "also remove generated packages under -out that the schema directory has no version for")
	if err := fl.Parse(args); err != nil {
		return exitCode(2)
	}
	if fl.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fl.Arg(0))
	}
	var fsys fs.FS = schema.FS
	if *schemaDir != "" {
		fsys = os.DirFS(*schemaDir)
	}
	gen, err := pipeline.Generate(fsys)
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
