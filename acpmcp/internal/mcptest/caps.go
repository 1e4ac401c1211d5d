//go:build unstable_mcp_over_acp || unstable

package mcptest

import (
	"context"
	"errors"
	"testing"

	"github.com/acpgen/acpgen/acpmcp"
)

// Caps is what a version's binding says of the capability that lets a
// client declare an "acp" MCP server (mcpCapabilities.acp in v1,
// session.mcp.acp in v2), in the version-neutral terms of the suite: the
// adapter fills it over the version's Advertised, Declare and
// CheckServers.
type Caps struct {
	// Advertised is the version's Advertised over the capabilities the
	// agent of the pair answered initialize with.
	Advertised bool
	// NewSession declares reg with the version's Declare over the agent's
	// capabilities, sends them in session/new, and returns the "acp"
	// servers the agent received.
	NewSession func(ctx context.Context, reg *acpmcp.Registration) ([]Declared, error)
	// DeclareWithout returns the errors of the version's Declare of reg
	// under capabilities without the binding's: none, empty, and MCP
	// capabilities without acp.
	DeclareWithout func(reg *acpmcp.Registration) []error
	// CheckHTTP is the version's CheckServers of an http MCP server under
	// no capabilities.
	CheckHTTP func() error
	// ErrNotAdvertised is the version's ErrACPNotAdvertised.
	ErrNotAdvertised error
}

// Declared is an "acp" MCP server as the agent received it.
type Declared struct {
	ServerID, Name string
}

func testDeclareAndCapabilities(t *testing.T, p *Pair) {
	reg, err := p.Provider.RegisterServer("tools", EchoServer(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !p.Caps.Advertised {
		t.Fatal("the agent's initialize did not advertise the capability")
	}
	got, err := p.Caps.NewSession(Timeout(t), reg)
	if err != nil {
		t.Fatalf("session/new: %v", err)
	}
	if len(got) != 1 || got[0].ServerID != reg.ServerID() || got[0].Name != "tools" {
		t.Fatalf("the agent received %+v, want the declared server", got)
	}
	// An agent without the capability never gets an acp server: an error.
	errs := p.Caps.DeclareWithout(reg)
	if len(errs) == 0 {
		t.Fatal("no capabilities without the binding's were tried")
	}
	for i, err := range errs {
		if !errors.Is(err, p.Caps.ErrNotAdvertised) {
			t.Errorf("Declare under capabilities %d without it = %v, want %v", i, err, p.Caps.ErrNotAdvertised)
		}
	}
	if err := p.Caps.CheckHTTP(); err != nil {
		t.Errorf("an http server needs no acp capability: %v", err)
	}
}
