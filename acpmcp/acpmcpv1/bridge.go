//go:build unstable_mcp_over_acp || unstable

package acpmcpv1

import (
	"github.com/acpgen/acpgen/acpmcp"
	"github.com/acpgen/acpgen/generated/acpv1"
)

// A Bridge re-exports the "acp" servers of a connection's sessions as
// loopback Streamable HTTP endpoints ([acpmcp.Bridge]), closed with the
// connection.
type Bridge struct {
	*acpmcp.Bridge
}

// Doner is a connection that says when it has ended:
// *acpv1.AgentSideConnection.
type Doner interface {
	Done() <-chan struct{}
}

// NewBridge returns a bridge that forwards through c and closes when conn
// ends (or on Close).
func NewBridge(c *Caller, conn Doner, opts *acpmcp.BridgeOptions) *Bridge {
	b := &Bridge{Bridge: acpmcp.NewBridge(c.Caller, opts)}
	b.CloseWhen(conn.Done())
	return b
}

// AdaptServers returns servers with each "acp" entry replaced by an "http"
// entry served by the bridge (its name and _meta kept), for an agent whose
// MCP client takes only URLs.
func (b *Bridge) AdaptServers(servers []acpv1.MCPServer) ([]acpv1.MCPServer, error) {
	out := make([]acpv1.MCPServer, len(servers))
	for i, s := range servers {
		v, ok := s.Value.(*acpv1.MCPServerACPVariant)
		if !ok {
			out[i] = s
			continue
		}
		d, err := b.Declare(string(v.ServerID), v.Name)
		if err != nil {
			return nil, err
		}
		out[i] = acpv1.NewMCPServerHTTPVariant(d.Name, d.URL, []acpv1.HTTPHeader{{Name: "Authorization", Value: d.Authorization}})
		out[i].Value.(*acpv1.MCPServerHTTPVariant).Meta = v.Meta
	}
	return out, nil
}
