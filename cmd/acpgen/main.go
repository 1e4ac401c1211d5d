// Command acpgen generates Go packages for the Agent Client Protocol from its
// JSON schema: one package per protocol version (acpv1, acpv2).
//
// Usage:
//
//	acpgen [-schema dir] [-out dir] [-check]
//
// With no -schema it uses the schema files pinned into the binary. The
// schema directory holds v1/schema.json and v2/schema.json (or, for packages
// before 2.0, a single schema.json), as the npm package
// @agentclientprotocol/sdk ships them under schema/. -check writes nothing:
// it prints how the files under -out differ from what would be generated and
// exits with status 1 if they do.
//
// In a repository, regenerate with a go:generate line such as
//
//	//go:generate go run github.com/acpgen/acpgen/cmd/acpgen -out ./acp
package main

//go:generate go run . -out ../../generated

import (
	"flag"
	"fmt"
	"io/fs"
	"os"

	"github.com/acpgen/acpgen/gen/pipeline"
	"github.com/acpgen/acpgen/gen/write"
	"github.com/acpgen/acpgen/schema"
)

func main() {
	schemaDir := flag.String("schema", "", "directory with the schema files (default: the pinned copy built in)")
	out := flag.String("out", "generated", "output directory; one package per protocol version is written below it")
	check := flag.Bool("check", false, "write nothing; print the difference and exit 1 if the output is stale")
	flag.Parse()
	if flag.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "acpgen: unexpected argument %q\n", flag.Arg(0))
		flag.Usage()
		os.Exit(2)
	}
	var fsys fs.FS = schema.FS
	if *schemaDir != "" {
		fsys = os.DirFS(*schemaDir)
	}
	os.Exit(run(fsys, *out, *check))
}

func run(fsys fs.FS, out string, check bool) int {
	files, err := pipeline.Generate(fsys)
	if err != nil {
		fmt.Fprintln(os.Stderr, "acpgen:", err)
		return 1
	}
	if check {
		changes, err := write.Changes(out, files)
		if err != nil {
			fmt.Fprintln(os.Stderr, "acpgen:", err)
			return 1
		}
		if len(changes) > 0 {
			fmt.Print(write.Diff(changes))
			fmt.Fprintf(os.Stderr, "acpgen: %d generated file(s) under %s are stale; run acpgen to regenerate\n", len(changes), out)
			return 1
		}
		return 0
	}
	changes, err := write.Write(out, files)
	if err != nil {
		fmt.Fprintln(os.Stderr, "acpgen:", err)
		return 1
	}
	for _, c := range changes {
		fmt.Fprintln(os.Stderr, "acpgen: wrote", c.Path)
	}
	return 0
}
