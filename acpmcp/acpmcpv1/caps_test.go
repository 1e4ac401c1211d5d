//go:build unstable_mcp_over_acp || unstable

package acpmcpv1

import (
	"context"

	"github.com/acpgen/acpgen/acpmcp"
	"github.com/acpgen/acpgen/acpmcp/internal/mcptest"
	"github.com/acpgen/acpgen/generated/acpv1"
)

// capsAdapter is v1's capability checks for the suite (mcpCapabilities.acp).
func (p *pair) capsAdapter() mcptest.Caps {
	return mcptest.Caps{
		Advertised: Advertised(p.caps),
		NewSession: func(ctx context.Context, reg *acpmcp.Registration) ([]mcptest.Declared, error) {
			servers, err := Declare(p.caps, reg)
			if err != nil {
				return nil, err
			}
			if _, err := p.clientCon.NewSession(ctx, &acpv1.NewSessionRequest{Cwd: "/", MCPServers: servers}); err != nil {
				return nil, err
			}
			var got []mcptest.Declared
			for _, s := range ACPServers(<-p.agent.servers) {
				got = append(got, mcptest.Declared{ServerID: string(s.ServerID), Name: s.Name})
			}
			return got, nil
		},
		DeclareWithout: func(reg *acpmcp.Registration) (errs []error) {
			for _, caps := range []*acpv1.AgentCapabilities{nil, {}, {MCPCapabilities: &acpv1.MCPCapabilities{}}} {
				_, err := Declare(caps, reg)
				errs = append(errs, err)
			}
			return errs
		},
		CheckHTTP: func() error {
			return CheckServers(nil, []acpv1.MCPServer{acpv1.NewMCPServerHTTPVariant("web", "http://127.0.0.1:1/", nil)})
		},
		ErrNotAdvertised: ErrACPNotAdvertised,
	}
}
