//go:build unstable_mcp_over_acp || unstable

package acpmcpv2

import (
	"context"

	"github.com/acpgen/acpgen/acpmcp"
	"github.com/acpgen/acpgen/generated/acpv2"
)

// Requester sends "mcp/message" requests: *acpv2.AgentSideConnection.
type Requester interface {
	MessageMCP(ctx context.Context, params *acpv2.MessageMCPRequest) (*acpv2.MessageMCPResponse, error)
}

// A Caller calls the MCP servers the client of one connection declared.
// Embed it in the Agent given to acpv2.NewAgentSideConnection, then
// [Caller.Bind] the connection; [acpmcp.Caller.Transport] connects an
// mcp.Client to a declared server.
type Caller struct {
	*acpmcp.Caller
}

// NewCaller returns a caller with no connection.
func NewCaller(opts *acpmcp.CallerOptions) *Caller {
	return &Caller{Caller: acpmcp.NewCaller(nil, opts)}
}

// Bind sets the connection the caller's requests go to.
func (c *Caller) Bind(conn Requester) { c.SetRequester(wire.Requester(conn.MessageMCP)) }

// MessageMCP routes an "mcp/message" notification to its request: the
// method of acpv2.AgentMessageMCP.
func (c *Caller) MessageMCP(_ context.Context, params *acpv2.MessageMCPNotification) error {
	wire.Route(c.Caller, params)
	return nil
}

// ACPServers returns the "type": "acp" entries of a session's mcpServers.
func ACPServers(servers []acpv2.MCPServer) []acpv2.MCPServerACP {
	var out []acpv2.MCPServerACP
	for _, s := range servers {
		if v, ok := s.Value.(*acpv2.MCPServerACPVariant); ok {
			out = append(out, v.MCPServerACP)
		}
	}
	return out
}
