//go:build unstable_mcp_over_acp || unstable

package acpmcpv1

import (
	"errors"
	"fmt"

	"github.com/acpgen/acpgen/acpmcp"
	"github.com/acpgen/acpgen/generated/acpv1"
)

// ErrACPNotAdvertised is wrapped by the error of a client about to declare
// an "acp" MCP server to an agent that did not advertise
// mcpCapabilities.acp.
var ErrACPNotAdvertised = errors.New("the agent does not advertise mcpCapabilities.acp")

// Advertise sets mcpCapabilities.acp in an agent's capabilities: an agent
// that uses a [Caller] answers initialize with it.
func Advertise(caps *acpv1.AgentCapabilities) {
	if caps.MCPCapabilities == nil {
		caps.MCPCapabilities = &acpv1.MCPCapabilities{}
	}
	yes := true
	caps.MCPCapabilities.ACP = &yes
}

// Advertised reports whether caps advertise mcpCapabilities.acp.
func Advertised(caps *acpv1.AgentCapabilities) bool {
	return caps != nil && caps.MCPCapabilities != nil && caps.MCPCapabilities.ACP != nil && *caps.MCPCapabilities.ACP
}

// CheckServers returns an error wrapping [ErrACPNotAdvertised] when servers
// hold an "acp" entry and caps (the agent's, from initialize) do not
// advertise mcpCapabilities.acp: a client never declares one to such an
// agent.
func CheckServers(caps *acpv1.AgentCapabilities, servers []acpv1.MCPServer) error {
	if Advertised(caps) {
		return nil
	}
	for i, s := range servers {
		if v, ok := s.Value.(*acpv1.MCPServerACPVariant); ok {
			return fmt.Errorf("acpmcpv1: mcpServers[%d] (%q) has type acp: %w", i, v.Name, ErrACPNotAdvertised)
		}
	}
	return nil
}

// Declare returns the mcpServers entries of regs for a session, or an error
// wrapping [ErrACPNotAdvertised] when caps do not advertise
// mcpCapabilities.acp.
func Declare(caps *acpv1.AgentCapabilities, regs ...*acpmcp.Registration) ([]acpv1.MCPServer, error) {
	servers := make([]acpv1.MCPServer, len(regs))
	for i, r := range regs {
		servers[i] = Declaration(r)
	}
	if err := CheckServers(caps, servers); err != nil {
		return nil, err
	}
	return servers, nil
}
