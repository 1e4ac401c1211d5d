// Package mcptest holds the tests of MCP over ACP that every protocol
// version's binding must pass (acpmcpv1, acpmcpv2): errors, limits,
// cancellation, notifications, a Go MCP SDK client and the capability
// checks ([Caps]) through a [Pair], written once and run by each binding's
// tests through [Run] with an adapter that connects a client and an agent
// of its version, as internal/conntest does for the generated
// connections; and what the interop tests against the TypeScript SDK share
// ([StartNode], [ReadCallerReport]).
//
// Every file but this one is behind the build tag of the feature,
// unstable_mcp_over_acp (or unstable).
package mcptest
