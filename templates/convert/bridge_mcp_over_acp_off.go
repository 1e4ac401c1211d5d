//go:build ignore

package convert

import (
	"github.com/acpgen/acpgen/generated/acpv1"
	"github.com/acpgen/acpgen/generated/acpv2"
)

// mcpACPToV1 does nothing: without MCP over ACP, neither version has
// mcpCapabilities.acp.
func mcpACPToV1(*acpv1.MCPCapabilities, *acpv2.MCPCapabilities) {}
