package examples

import (
	"bytes"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/acpgen/acpgen/gen/ir"
	"github.com/acpgen/acpgen/gen/pipeline"
	"github.com/acpgen/acpgen/schema"
)

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

	"github.com/acpgen/acpgen/acprouter"
	"github.com/acpgen/acpgen/generated/acpv1"
	"github.com/acpgen/acpgen/generated/acpv2"
	"github.com/acpgen/acpgen/generated/convert"
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

	"github.com/acpgen/acpgen/generated/acpv1"
	"github.com/acpgen/acpgen/generated/acpv2"
	"github.com/acpgen/acpgen/generated/convert"
)

func main() {}

func connect(ctx context.Context, toAgent io.Writer, fromAgent io.Reader, clientV1 acpv1.Client, clientV2 acpv2.Client) error {
`+client+`	return err
}
`)
}

// TestReadmeBridge builds the code of README's bridge on a router.
func TestReadmeBridge(t *testing.T) {
	const heading = "**An agent written once, against v2.** `convert.NewBridge` serves a v1 client with an"
	buildProgram(t, "## Both protocol versions", "bridge", `package main

import (
	"io"

	"github.com/acpgen/acpgen/acprouter"
	"github.com/acpgen/acpgen/generated/acpv1"
	"github.com/acpgen/acpgen/generated/acpv2"
	"github.com/acpgen/acpgen/generated/convert"
)

type agentV2 struct {
	acpv2.Agent
	conn *acpv2.AgentSideConnection
}

func report(n *acpv2.UpdateSessionNotification, err error) {}

func main() {
`+goBlock(t, heading)+`	_, _ = acprouter.New(acprouter.NewRoute(1, v1Route, convert.InitializeForV1))
}
`)
}

// clientBlock returns the second Go block of README's "Both protocol
// versions", the client's, which follows the line that begins its
// paragraph.
func clientBlock(t *testing.T) string {
	t.Helper()
	return goBlock(t, "**A client for both.** `convert.Negotiate` offers v2 and continues on v1 when the agent answers")
}

// TestReadmeVersionsTable checks the table of README.md that compares each
// stable method of v1 with v2's (ir.CompareMethods); -update rewrites it.
func TestReadmeVersionsTable(t *testing.T) {
	versions, err := pipeline.Versions(schema.FS)
	if err != nil {
		t.Fatal(err)
	}
	features, err := pipeline.Features(schema.FS)
	if err != nil {
		t.Fatal(err)
	}
	removed, err := pipeline.Removed(schema.FS)
	if err != nil {
		t.Fatal(err)
	}
	var pkgs []*ir.Package
	for _, v := range versions {
		p, _, err := pipeline.Build(schema.FS, v, features[v.Name], removed[v.Name])
		if err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	if len(pkgs) != 2 {
		t.Fatalf("%d versions", len(pkgs))
	}
	var b strings.Builder
	b.WriteString("| method | handled by | v1 → v2 |\n|---|---|---|\n")
	for _, m := range ir.CompareMethods(pkgs[0], pkgs[1]) {
		kind := "request"
		if m.Kind == ir.Notification {
			kind = "notification"
		}
		var how string
		switch {
		case m.To == nil:
			how = "v1 only"
		case m.From == nil:
			how = "v2 only"
		case m.Differs == "":
			how = "same shape"
		default:
			how = "differs: `" + m.Differs + "`"
		}
		fmt.Fprintf(&b, "| `%s` (%s) | %s | %s |\n", m.Name, kind, m.Side, how)
	}
	data, err := os.ReadFile(readme)
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`(?s)(<!-- versions:begin[^\n]*-->\n).*?(<!-- versions:end -->)`)
	if !re.Match(data) {
		t.Fatal("README.md has no versions:begin and versions:end markers")
	}
	want := re.ReplaceAll(data, []byte("${1}"+strings.ReplaceAll(b.String(), "$", "$$")+"${2}"))
	if bytes.Equal(data, want) {
		return
	}
	if *update {
		if err := os.WriteFile(readme, want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("the versions table of README.md is stale: run go test ./examples -run TestReadmeVersionsTable -update")
}
