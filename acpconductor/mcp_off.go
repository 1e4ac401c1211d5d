//go:build !(unstable_mcp_over_acp || unstable)

package acpconductor

import (
	"context"
	"fmt"
	"io"
)

// mcpBridge is empty without the tag of MCP over ACP: the conductor then
// forwards "acp" MCP servers and "mcp/message" unchanged, whatever the
// agent advertises.
type mcpBridge struct{ initID int64 }

// bridgesMCP tells whether the conductor bridges "acp" MCP servers.
const bridgesMCP = false

func newMCPBridge(*chain) *mcpBridge                       { return nil }
func (*mcpBridge) close()                                  {}
func (*mcpBridge) initialized([]byte)                      {}
func (*mcpBridge) adapt(_ string, p []byte) ([]byte, bool) { return p, false }
func (*mcpBridge) note([]byte) bool                        { return false }
func (*mcpBridge) offer(r []byte) ([]byte, bool)           { return r, false }

// mcpStdio refuses to run: the bridge that serves it is not built.
func mcpStdio(_ context.Context, _ []string, _ io.Reader, _ io.Writer, stderr io.Writer) int {
	fmt.Fprintln(stderr, "acpconductor: mcp-stdio: built without MCP over ACP (tag unstable_mcp_over_acp)")
	return 2
}
