//go:build unstable_mcp_over_acp || unstable

package acpmcpv2

import (
	"errors"
	"fmt"

	"github.com/acpgen/acpgen/acpmcp"
	"github.com/acpgen/acpgen/generated/acpv2"
)

// ErrACPNotAdvertised is wrapped by the error of a client about to declare
// an "acp" MCP server to an agent that did not advertise
// session.mcp.acp.
var ErrACPNotAdvertised = errors.New("the agent does not advertise session.mcp.acp")

// Advertise sets session.mcp.acp in an agent's capabilities: an agent that
// uses a [Caller] answers initialize with it. It sets capabilities.session
// when it is missing, and an agent that advertises sessions serves
// session/list, session/resume and session/close ([acpv2.SessionAgent];
// embedding [acpv2.TurnRunner] gives all three): the connection refuses an
// initialize result that advertises what the agent does not serve.
func Advertise(caps *acpv2.AgentCapabilities) {
	if caps.Session == nil {
		caps.Session = &acpv2.SessionCapabilities{}
	}
	if caps.Session.MCP == nil {
		caps.Session.MCP = &acpv2.MCPCapabilities{}
	}
	if caps.Session.MCP.ACP == nil {
		caps.Session.MCP.ACP = &acpv2.MCPACPCapabilities{}
	}
}

// Advertised reports whether caps advertise session.mcp.acp.
func Advertised(caps *acpv2.AgentCapabilities) bool {
	return caps != nil && caps.Session != nil && caps.Session.MCP != nil && caps.Session.MCP.ACP != nil
}

// CheckServers returns an error wrapping [ErrACPNotAdvertised] when servers
// hold an "acp" entry and caps (the agent's, from initialize) do not
// advertise session.mcp.acp: a client never declares one to such an agent.
func CheckServers(caps *acpv2.AgentCapabilities, servers []acpv2.MCPServer) error {
	if Advertised(caps) {
		return nil
	}
	for i, s := range servers {
		if v, ok := s.Value.(*acpv2.MCPServerACPVariant); ok {
			return fmt.Errorf("acpmcpv2: mcpServers[%d] (%q) has type acp: %w", i, v.Name, ErrACPNotAdvertised)
		}
	}
	return nil
}

// Declare returns the mcpServers entries of regs for a session, or an error
// wrapping [ErrACPNotAdvertised] when caps do not advertise
// session.mcp.acp.
func Declare(caps *acpv2.AgentCapabilities, regs ...*acpmcp.Registration) ([]acpv2.MCPServer, error) {
	servers := make([]acpv2.MCPServer, len(regs))
	for i, r := range regs {
		servers[i] = Declaration(r)
	}
	if err := CheckServers(caps, servers); err != nil {
		return nil, err
	}
	return servers, nil
}
