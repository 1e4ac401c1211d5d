//go:build ignore

package convert

import (
	"context"

	"github.com/acpgen/acpgen/generated/acpv1"
	"github.com/acpgen/acpgen/generated/acpv2"
)

// mcpACPToV1 carries the v2 agent's session.mcp.acp to v1's
// mcpCapabilities.acp.
func mcpACPToV1(dst *acpv1.MCPCapabilities, src *acpv2.MCPCapabilities) {
	dst.ACP = acpv1.Ptr(src.ACP != nil)
}

// MessageMCP forwards the v2 agent's "mcp/message" request (MCP over ACP)
// to the v1 client, whose surface is the same, and its answer back.
func (c bridgeClient) MessageMCP(ctx context.Context, p *acpv2.MessageMCPRequest) (*acpv2.MessageMCPResponse, error) {
	req, err := viaWire[acpv1.MessageMCPRequest](p)
	if err != nil {
		return nil, acpv2.NewInvalidParamsError(map[string]string{"details": err.Error()})
	}
	res, err := c.b.v1.MessageMCP(ctx, req)
	if err != nil {
		return nil, errorToV2(err)
	}
	return viaWire[acpv2.MessageMCPResponse](res)
}

// MessageMCP forwards the v1 client's "mcp/message" notification (progress
// or a subscription event of an MCP request) to the v2 agent.
func (a bridgeAgent) MessageMCP(ctx context.Context, p *acpv1.MessageMCPNotification) error {
	n, err := viaWire[acpv2.MessageMCPNotification](p)
	if err != nil {
		return err
	}
	return a.b.peer.MessageMCP(ctx, n)
}
