// Command acpgen generates Go packages for the Agent Client Protocol from its
// JSON schema: one package per protocol version (acpv1, acpv2), the stable
// surface in plain files and each unstable feature behind its build tag.
//
// Usage:
//
//	acpgen [-schema dir] [-out dir] [-check] [-prune]
//	acpgen api [-out dir] pkgdir...
//	acpgen diff [-json] [-exit-code] pkgdir
//	acpgen diff [-json] [-exit-code] old-schema-dir new-schema-dir
//
// With no -schema it uses the schema files pinned into the binary. A schema
// directory holds v1/ and v2/ with schema.json and schema.unstable.json (or,
// for packages before 2.0, a single schema.json), as the npm package
// @agentclientprotocol/sdk ships them under schema/. -check writes nothing:
// it prints how the files under -out differ from what would be generated and
// exits with status 1 if they do. Generated files of a package that the run
// does not produce (a schema directory with v1 only leaves acpv2) are kept
// unless -prune is given. Writing is all or nothing.
//
// acpgen api writes the API surface of generated packages, one line per
// exported element tagged with its unstable feature, to dir/<package>.txt.
// acpgen diff prints the unstable surface of a generated package, or the
// API change between two schema revisions.
//
// In a repository, regenerate with a go:generate line such as
//
//	//go:generate go run github.com/acpgen/acpgen/cmd/acpgen -out ./acp
package main

//go:generate go run . -out ../../generated
//go:generate go run . api -out ../../generated/api ../../generated/acpv1 ../../generated/acpv2

import (
	"fmt"
	"os"
	"strings"
)

func main() {
	args := os.Args[1:]
	cmd := generate
	if len(args) > 0 {
		switch args[0] {
		case "api":
			cmd, args = apiFiles, args[1:]
		case "diff":
			cmd, args = diff, args[1:]
		}
	}
	if err := cmd(args, os.Stdout); err != nil {
		if code, ok := err.(exitCode); ok {
			os.Exit(int(code))
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

func (c exitCode) Error() string { return fmt.Sprintf("exit status %d", int(c)) }
