//go:build unstable_mcp_over_acp || unstable

package acpmcpv1

import (
	"context"
	"errors"

	"github.com/acpgen/acpgen/acpmcp"
	"github.com/acpgen/acpgen/generated/acpv1"
)

// Requester sends "mcp/message" requests: *acpv1.AgentSideConnection.
type Requester interface {
	MessageMCP(ctx context.Context, params *acpv1.MessageMCPRequest) (*acpv1.MessageMCPResponse, error)
}

// A Caller calls the MCP servers the client of one connection declared.
// Embed it in the Agent given to acpv1.NewAgentSideConnection, then
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
func (c *Caller) Bind(conn Requester) {
	c.SetRequester(func(ctx context.Context, m acpmcp.Message) (acpmcp.Outcome, error) {
		req := acpv1.NewMessageMCPRequest(acpv1.MCPServerACPID(m.ServerID), acpv1.MCPRequestID(m.RequestID), m.Method)
		req.Params, req.Meta = m.Params, m.Meta
		resp, err := conn.MessageMCP(ctx, req)
		var acpErr *acpv1.Error
		switch {
		case errors.As(err, &acpErr):
			return acpmcp.Outcome{}, &acpmcp.Error{Code: int64(acpErr.Code), Message: acpErr.Message, Data: acpErr.Data}
		case err != nil:
			return acpmcp.Outcome{}, err
		}
		return outcome(resp)
	})
}

// outcome returns the inner outcome of a response.
func outcome(resp *acpv1.MessageMCPResponse) (acpmcp.Outcome, error) {
	if resp != nil {
		switch v := resp.Value.(type) {
		case *acpv1.MessageMCPResponseResult:
			return acpmcp.Outcome{Result: v.Result, Meta: v.Meta}, nil
		case *acpv1.MessageMCPResponseError:
			return acpmcp.Outcome{Error: &acpmcp.MCPError{Code: int64(v.Error.Code), Message: v.Error.Message, Data: v.Error.Data}, Meta: v.Meta}, nil
		}
	}
	return acpmcp.Outcome{}, &acpmcp.Error{Code: acpmcp.CodeBackendFailed, Message: "Invalid MCP-over-ACP response carrier"}
}

// MessageMCP routes an "mcp/message" notification to its request: the
// method of acpv1.AgentMessageMCP.
func (c *Caller) MessageMCP(_ context.Context, params *acpv1.MessageMCPNotification) error {
	c.HandleNotification(acpmcp.Message{
		ServerID: string(params.ServerID), RequestID: string(params.RequestID),
		Method: params.Method, Params: params.Params, Meta: params.Meta,
	})
	return nil
}

// ACPServers returns the "type": "acp" entries of a session's mcpServers.
func ACPServers(servers []acpv1.MCPServer) []acpv1.MCPServerACP {
	var out []acpv1.MCPServerACP
	for _, s := range servers {
		if v, ok := s.Value.(*acpv1.MCPServerACPVariant); ok {
			out = append(out, v.MCPServerACP)
		}
	}
	return out
}
