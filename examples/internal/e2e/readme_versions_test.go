package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/acpgen/acpgen/gen/ir"
	"github.com/acpgen/acpgen/gen/pipeline"
	"github.com/acpgen/acpgen/schema"
)

// TestReadmeBothVersions checks that the Go blocks of docs/versions.md
// are in their sections and use what each is about: the router, the
// client's negotiation and the bridge on a router. TestDocsGoBlocks
// compiles them.
func TestReadmeBothVersions(t *testing.T) {
	for _, c := range []struct {
		heading string
		uses    []string
	}{
		{"## One agent, both versions: the router", []string{"acprouter.New(", "router.Serve("}},
		{"## A client for both", []string{"convert.Negotiate("}},
		{"## An agent written once, against v2: the bridge", []string{"convert.NewBridgeFunc(", "acprouter.NewRoute(1, v1Route"}},
	} {
		code := goBlock(t, versionsPage, c.heading)
		for _, u := range c.uses {
			if !strings.Contains(code, u) {
				t.Errorf("the Go block of %q does not call %s", c.heading, u)
			}
		}
	}
}

// TestReadmeVersionsTable checks the table of docs/versions.md that
// compares each stable method of v1 with v2's (ir.CompareMethods); -update
// rewrites it.
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
	checkTable(t, versionsPage, "versions", b.String(), "TestReadmeVersionsTable")
}
