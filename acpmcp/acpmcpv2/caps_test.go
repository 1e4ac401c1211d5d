//go:build unstable_mcp_over_acp || unstable

package acpmcpv2

import (
	"errors"
	"testing"

	"github.com/acpgen/acpgen/acpmcp/internal/mcptest"
	"github.com/acpgen/acpgen/generated/acpv2"
)

func TestDeclareAndCapabilities(t *testing.T) {
	p := newPair(t)
	reg, err := p.provider.RegisterServer("tools", mcptest.EchoServer(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !Advertised(p.caps) {
		t.Fatal("the agent's initialize did not advertise the capability")
	}
	servers, err := Declare(p.caps, reg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.clientCon.NewSession(mcptest.Timeout(t), &acpv2.NewSessionRequest{Cwd: "/", MCPServers: servers}); err != nil {
		t.Fatalf("session/new: %v", err)
	}
	got := ACPServers(<-p.agent.servers)
	if len(got) != 1 || string(got[0].ServerID) != reg.ServerID() || got[0].Name != "tools" {
		t.Fatalf("the agent received %+v, want the declared server", got)
	}
	// An agent without the capability never gets an acp server: an error.
	for _, caps := range []*acpv2.AgentCapabilities{nil, {}, {Session: &acpv2.SessionCapabilities{MCP: &acpv2.MCPCapabilities{}}}} {
		if _, err := Declare(caps, reg); !errors.Is(err, ErrACPNotAdvertised) {
			t.Errorf("Declare(%+v) = %v, want ErrACPNotAdvertised", caps, err)
		}
	}
	http := acpv2.NewMCPServerHTTPVariant("web", "http://127.0.0.1:1/")
	if err := CheckServers(nil, []acpv2.MCPServer{http}); err != nil {
		t.Errorf("an http server needs no acp capability: %v", err)
	}
}
