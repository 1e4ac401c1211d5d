package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/acpgen/acpgen/gen/api"
	"github.com/acpgen/acpgen/gen/pipeline"
	"github.com/acpgen/acpgen/gen/write"
)

// apiFiles writes the surface file of each generated package directory.
func apiFiles(args []string, stdout io.Writer) error {
	fl := newFlagSet("api")
	out := fl.String("out", "generated/api", "directory for the surface files")
	readme := fl.String("readme", "", "Markdown file whose build-tag table to rewrite")
	if err := parseFlags(fl, args); err != nil {
		return err
	}
	if fl.NArg() == 0 {
		return fmt.Errorf("api: name the generated package directories")
	}
	surfaces := map[string][]api.Line{}
	for _, dir := range fl.Args() {
		fmt.Fprintf(os.Stderr, "acpgen: reading the API of %s under each build tag\n", dir)
		lines, err := api.Tagged(dir)
		if err != nil {
			return err
		}
		surfaces[filepath.Base(dir)] = lines
		data := append([]byte(pipeline.SurfaceHeader), api.Format(lines)...)
		if err := writeIfChanged(filepath.Join(*out, filepath.Base(dir)+".txt"), data); err != nil {
			return err
		}
	}
	if *readme == "" {
		return nil
	}
	doc, err := os.ReadFile(*readme)
	if err != nil {
		return err
	}
	updated, err := api.Splice(string(doc), api.Table(surfaces))
	if err != nil {
		return fmt.Errorf("%s: %w", *readme, err)
	}
	return writeIfChanged(*readme, []byte(updated))
}

func writeIfChanged(path string, data []byte) error {
	if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, data) {
		return nil
	}
	if err := write.Text(path, data); err != nil {
		return err
	}
	fmt.Fprintln(os.Stderr, "acpgen: wrote", path)
	return nil
}
