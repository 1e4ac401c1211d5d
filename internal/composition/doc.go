// Package composition tests the pieces of acpgen combined as the docs
// combine them: one acpv2.TurnRunner agent behind acprouter, reached over
// stdio (the agent a process), Streamable HTTP and WebSocket by a v1 and
// a v2 client, acpotel on both sides, the client giving the agent an MCP
// tool over ACP. Its tests live behind the unstable_mcp_over_acp tag, as
// acpmcp's do, and make test runs them with the packages of MCP_PKGS.
package composition
