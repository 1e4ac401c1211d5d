//go:build unstable_mcp_over_acp || unstable

package acpmcpv2

import (
	"context"

	"github.com/acpgen/acpgen/acpmcp"
	"github.com/acpgen/acpgen/acpmcp/internal/mcptest"
	"github.com/acpgen/acpgen/generated/acpv2"
)

// capsAdapter is v2's capability checks for the suite (session.mcp.acp,
// under the agent's session capabilities).
func (p *pair) capsAdapter() mcptest.Caps {
	received := func() (got []mcptest.Declared) {
		for _, s := range ACPServers(<-p.agent.servers) {
			got = append(got, mcptest.Declared{ServerID: string(s.ServerID), Name: s.Name})
		}
		return got
	}
	without := []*acpv2.AgentCapabilities{nil, {}, {Session: &acpv2.SessionCapabilities{MCP: &acpv2.MCPCapabilities{}}}}
	return mcptest.Caps{
		Advertised: Advertised(p.caps),
		NewSession: func(ctx context.Context, reg *acpmcp.Registration) ([]mcptest.Declared, error) {
			servers, err := Declare(p.caps, reg)
			if err == nil {
				_, err = p.clientCon.NewSession(ctx, &acpv2.NewSessionRequest{Cwd: "/", MCPServers: servers})
			}
			if err != nil {
				return nil, err
			}
			return received(), nil
		},
		DeclareWithout: func(reg *acpmcp.Registration) []error {
			errs := make([]error, len(without))
			for i, caps := range without {
				_, errs[i] = Declare(caps, reg)
			}
			return errs
		},
		CheckHTTP: func() error {
			http := acpv2.NewMCPServerHTTPVariant("web", "http://127.0.0.1:1/")
			return CheckServers(nil, []acpv2.MCPServer{http})
		},
		ErrNotAdvertised: ErrACPNotAdvertised,
	}
}
