//go:build unstable_mcp_over_acp || unstable

package acpmcpv2

import (
	"context"
	"errors"

	"github.com/acpgen/acpgen/acpmcp"
	"github.com/acpgen/acpgen/generated/acpv2"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Notifier sends "mcp/message" notifications: *acpv2.ClientSideConnection.
type Notifier interface {
	MessageMCP(ctx context.Context, params *acpv2.MessageMCPNotification) error
}

// A Provider serves MCP servers to the agent of one connection. Embed it in
// the Client given to acpv2.NewClientSideConnection, then [Provider.Bind]
// the connection.
type Provider struct {
	*acpmcp.Provider
}

// NewProvider returns a provider with no servers and no connection.
func NewProvider() *Provider {
	return &Provider{Provider: acpmcp.NewProvider(nil)}
}

// Bind sets the connection the provider's notifications go to.
func (p *Provider) Bind(conn Notifier) {
	p.SetNotifier(func(ctx context.Context, m acpmcp.Message) error {
		n := acpv2.NewMessageMCPNotification(acpv2.MCPServerACPID(m.ServerID), acpv2.MCPRequestID(m.RequestID), m.Method)
		n.Params = m.Params
		return conn.MessageMCP(ctx, n)
	})
}

// RegisterServer registers s, a server of the Go MCP SDK, served through
// the SDK's own request pipeline ([acpmcp.ServerHandler]).
func (p *Provider) RegisterServer(name string, s *mcp.Server, opts *acpmcp.ServerOptions) (*acpmcp.Registration, error) {
	return p.Register(name, acpmcp.ServerHandler(s), opts)
}

// MessageMCP answers an "mcp/message" request: the method of
// acpv2.ClientMessageMCP.
func (p *Provider) MessageMCP(ctx context.Context, params *acpv2.MessageMCPRequest) (*acpv2.MessageMCPResponse, error) {
	out, err := p.Serve(ctx, acpmcp.Message{
		ServerID: string(params.ServerID), RequestID: string(params.RequestID),
		Method: params.Method, Params: params.Params, Meta: params.Meta,
	})
	if err != nil {
		return nil, toACPError(err)
	}
	if out.Error != nil {
		resp := acpv2.NewMessageMCPResponseError(acpv2.MCPError{
			Code: int32(out.Error.Code), Message: out.Error.Message, Data: out.Error.Data,
		})
		return &resp, nil
	}
	resp := acpv2.NewMessageMCPResponseResult(out.Result)
	return &resp, nil
}

// toACPError returns the binding's error as the connection's error.
func toACPError(err error) error {
	var e *acpmcp.Error
	if !errors.As(err, &e) {
		e = &acpmcp.Error{Code: acpmcp.CodeBackendFailed, Message: "MCP server handler failed"}
	}
	out := &acpv2.Error{Code: acpv2.ErrorCode(e.Code), Message: e.Message}
	if e.Data != nil {
		out.Data = &acpv2.ErrorData{Value: &acpv2.ErrorDataOther{Raw: e.Data}}
	}
	return out
}

// Declaration returns the "type": "acp" entry of a session's mcpServers
// for r.
func Declaration(r *acpmcp.Registration) acpv2.MCPServer {
	return acpv2.NewMCPServerACPVariant(r.Name(), acpv2.MCPServerACPID(r.ServerID()))
}
