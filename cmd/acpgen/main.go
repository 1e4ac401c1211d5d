// Command acpgen generates Go packages for the Agent Client Protocol from its
// JSON schema: one package per protocol version (acpv1, acpv2), the stable
// surface in plain files and each unstable feature behind its build tag, and
// when both versions are generated the convert package between them.
//
// Usage:
//
//	acpgen [generate] [-config file] [-schema dir] [-out dir] [-version v1|v2|all] [-package name]
//	       [-features all|none|list] [-bake] [-tests] [-check] [-prune]
//	acpgen diff [-json] [-exit-code] [-breaking] [-version v1|v2] [-features all|none|list] pkgdir
//	acpgen diff [-json] [-exit-code] [-breaking] [-version v1|v2] [-features all|none|list] old-schema-dir new-schema-dir
//	acpgen api [-out dir] [-readme file] pkgdir...
//	acpgen fetch [-out dir] [-check] [-npm command] version
//	acpgen version
//	acpgen help [command]
//
// acpgen -h and acpgen help list the commands; acpgen help <command> gives
// a command's arguments and flags.
//
// With no -schema it uses the schema files pinned into the binary. A schema
// directory holds v1/ and v2/ with schema.json and schema.unstable.json (or,
// for packages before 2.0, a single schema.json), as the npm package
// @agentclientprotocol/sdk ships them under schema/. -version and -package
// choose what is generated and how the package is called (with one version,
// the package is written directly into -out); -features lists the unstable
// features that get code at all, and -bake compiles them in without build
// tags. -config reads the same options from a JSON file. Options that do not
// fit together exit with status 2, writing nothing. -check writes nothing:
// it prints how the files under -out differ from what would be generated and
// exits with status 1 if they do. Generated files of a package that the run
// does not produce (a schema directory with v1 only leaves acpv2) are kept
// unless -prune is given. Writing is all or nothing.
//
// acpgen version prints the generator's module version. acpgen api writes
// the API surface of generated packages, one line per exported element
// tagged with its unstable feature, to dir/<package>.txt. acpgen diff prints
// the unstable surface of a generated package, or the compatibility report
// between two schema revisions: each change sorted into breaks Go code,
// breaks the wire, or compatible.
//
// In a module, declare the tool with go get -tool
// github.com/acpgen/acpgen/cmd/acpgen and regenerate with a go:generate line
// such as
//
//	//go:generate go tool acpgen -version v1 -package acp -out .
package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/acpgen/acpgen/gen/pipeline"
)

func main() {
	args := os.Args[1:]
	run := generate
	if len(args) > 0 {
		if c, ok := lookup(args[0]); ok {
			run, args = c.run, args[1:]
		}
	}
	if err := run(args, os.Stdout); err != nil {
		if code, ok := err.(exitCode); ok {
			os.Exit(int(code))
		}
		if _, ok := err.(usageError); ok {
			fmt.Fprintln(os.Stderr, "acpgen:", err)
			os.Exit(2)
		}
		// A schema's problems come one a line, each located.
		for _, line := range strings.Split(err.Error(), "\n") {
			fmt.Fprintln(os.Stderr, "acpgen:", line)
		}
		os.Exit(1)
	}
}

// exitCode ends the command with a status and no message.
type exitCode int

// printVersion prints the generator's module version, from its build
// information.
func printVersion(args []string, stdout io.Writer) error {
	if len(args) > 0 {
		return usage(fmt.Errorf("version takes no arguments"))
	}
	_, err := fmt.Fprintln(stdout, "acpgen", pipeline.GeneratorVersion())
	return err
}

func (c exitCode) Error() string { return fmt.Sprintf("exit status %d", int(c)) }
