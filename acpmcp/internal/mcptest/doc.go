// Package mcptest holds the tests of MCP over ACP that every protocol
// version's binding must pass (acpmcpv1, acpmcpv2): errors, limits,
// cancellation, notifications and a Go MCP SDK client through a [Pair],
// written once and run by each binding's tests through [Run] with an
// adapter that connects a client and an agent of its version, as
// internal/conntest does for the generated connections.
//
// Every file but this one is behind the build tag of the feature,
// unstable_mcp_over_acp (or unstable).
package mcptest
