package examples

import "testing"

// TestReadmeBothVersions builds the code of README's "Both protocol
// versions": the router, inside a function with agents of each version,
// and the client's negotiation, inside a function that declares what it
// uses.
func TestReadmeBothVersions(t *testing.T) {
	const heading = "## Both protocol versions"
	code := goBlock(t, heading)
	buildProgram(t, heading, "versions", `package main

import (
	"io"
	"os"

	"github.com/acpgen/acpgen/acpversions"
	"github.com/acpgen/acpgen/generated/acpv1"
	"github.com/acpgen/acpgen/generated/acpv2"
)

type agentV1 struct{ acpv1.Agent }

type agentV2 struct{ acpv2.Agent }

func main() {}

func serve() error {
`+code+`	return nil
}
`)
	client := clientBlock(t)
	buildProgram(t, heading, "negotiate", `package main

import (
	"context"
	"io"

	"github.com/acpgen/acpgen/acpversions"
	"github.com/acpgen/acpgen/generated/acpv1"
	"github.com/acpgen/acpgen/generated/acpv2"
)

func main() {}

func connect(ctx context.Context, toAgent io.Writer, fromAgent io.Reader, clientV1 acpv1.Client, clientV2 acpv2.Client) error {
`+client+`	return err
}
`)
}

// clientBlock returns the second Go block of README's "Both protocol
// versions", the client's, which follows the line that begins its
// paragraph.
func clientBlock(t *testing.T) string {
	t.Helper()
	return goBlock(t, "**A client for both.** `acpversions.Negotiate` offers v2 and continues on v1 when the agent answers")
}
