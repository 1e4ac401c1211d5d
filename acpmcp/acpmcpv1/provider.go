//go:build unstable_mcp_over_acp || unstable

package acpmcpv1

import (
	"context"

	"github.com/acpgen/acpgen/acpmcp"
	"github.com/acpgen/acpgen/generated/acpv1"
)

// Notifier sends "mcp/message" notifications: *acpv1.ClientSideConnection.
type Notifier interface {
	MessageMCP(ctx context.Context, params *acpv1.MessageMCPNotification) error
}

// A Provider serves MCP servers to the agent of one connection. Embed it in
// the Client given to acpv1.NewClientSideConnection, then [Provider.Bind]
// the connection.
type Provider struct {
	*acpmcp.Provider
}

// NewProvider returns a provider with no servers and no connection.
func NewProvider() *Provider {
	return &Provider{Provider: acpmcp.NewProvider(nil)}
}

// Bind sets the connection the provider's notifications go to.
func (p *Provider) Bind(conn Notifier) { p.SetNotifier(wire.Notifier(conn.MessageMCP)) }

// MessageMCP answers an "mcp/message" request: the method of
// acpv1.ClientMessageMCP.
func (p *Provider) MessageMCP(ctx context.Context, params *acpv1.MessageMCPRequest) (*acpv1.MessageMCPResponse, error) {
	return wire.Answer(ctx, p.Provider, params)
}

// Declaration returns the "type": "acp" entry of a session's mcpServers
// for r.
func Declaration(r *acpmcp.Registration) acpv1.MCPServer {
	return acpv1.NewMCPServerACPVariant(r.Name(), acpv1.MCPServerACPID(r.ServerID()))
}
