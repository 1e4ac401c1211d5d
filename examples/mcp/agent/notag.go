//go:build !(unstable_mcp_over_acp || unstable)

package main

import (
	"fmt"
	"os"
)

// main, without the feature's tag, says how to build the example.
func main() {
	fmt.Fprintln(os.Stderr, "agent: MCP over ACP is unstable; build with -tags unstable_mcp_over_acp")
	os.Exit(2)
}
