package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/acpgen/acpgen/gen/api"
	"github.com/acpgen/acpgen/gen/pipeline"
	"github.com/acpgen/acpgen/gen/write"
)

// apiFiles writes the surface file of each generated package directory.
func apiFiles(args []string) error {
	fl := flag.NewFlagSet("acpgen api", flag.ContinueOnError)
	out := fl.String("out", "generated/api", "directory for the surface files")
	if err := fl.Parse(args); err != nil {
		return exitCode(2)
	}
	if fl.NArg() == 0 {
		return fmt.Errorf("api: name the generated package directories")
	}
	for _, dir := range fl.Args() {
		lines, err := api.Tagged(dir)
		if err != nil {
			return err
		}
		name := filepath.Base(dir) + ".txt"
		data := append([]byte(pipeline.SurfaceHeader), api.Format(lines)...)
		if old, err := os.ReadFile(filepath.Join(*out, name)); err == nil && bytes.Equal(old, data) {
			continue
		}
		if err := write.Text(filepath.Join(*out, name), data); err != nil {
			return err
		}
		fmt.Fprintln(os.Stderr, "acpgen: wrote", filepath.Join(*out, name))
	}
	return nil
}
