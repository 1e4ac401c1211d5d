//go:build unstable_mcp_over_acp || unstable

package acpmcpv2

import (
	"context"
	"encoding/json"
	"errors"

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
func (c *Caller) Bind(conn Requester) {
	c.SetRequester(func(ctx context.Context, m acpmcp.Message) (acpmcp.Outcome, error) {
		req := acpv2.NewMessageMCPRequest(acpv2.MCPServerACPID(m.ServerID), acpv2.MCPRequestID(m.RequestID), m.Method)
		req.Params, req.Meta = m.Params, m.Meta
		resp, err := conn.MessageMCP(ctx, req)
		var acpErr *acpv2.Error
		switch {
		case errors.As(err, &acpErr):
			e := &acpmcp.Error{Code: int64(acpErr.Code), Message: acpErr.Message}
			if acpErr.Data != nil {
				e.Data, _ = json.Marshal(acpErr.Data)
			}
			return acpmcp.Outcome{}, e
		case err != nil:
			return acpmcp.Outcome{}, err
		}
		return outcome(resp)
	})
}

// outcome returns the inner outcome of a response.
func outcome(resp *acpv2.MessageMCPResponse) (acpmcp.Outcome, error) {
	if resp != nil {
		switch v := resp.Value.(type) {
		case *acpv2.MessageMCPResponseResult:
			return acpmcp.Outcome{Result: v.Result, Meta: v.Meta}, nil
		case *acpv2.MessageMCPResponseError:
			return acpmcp.Outcome{Error: &acpmcp.MCPError{Code: int64(v.Error.Code), Message: v.Error.Message, Data: v.Error.Data}, Meta: v.Meta}, nil
		}
	}
	return acpmcp.Outcome{}, &acpmcp.Error{Code: acpmcp.CodeBackendFailed, Message: "Invalid MCP-over-ACP response carrier"}
}

// MessageMCP routes an "mcp/message" notification to its request: the
// method of acpv2.AgentMessageMCP.
func (c *Caller) MessageMCP(_ context.Context, params *acpv2.MessageMCPNotification) error {
	c.HandleNotification(acpmcp.Message{
		ServerID: string(params.ServerID), RequestID: string(params.RequestID),
		Method: params.Method, Params: params.Params, Meta: params.Meta,
	})
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
