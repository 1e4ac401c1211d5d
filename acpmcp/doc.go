// Package acpmcp binds the ACP method "mcp/message" (the unstable
// MCP-over-ACP surface) to the official Go MCP SDK,
// github.com/modelcontextprotocol/go-sdk.
//
// A client gives an agent MCP servers that live in its own process: it
// registers them on a [Provider], declares them in "session/new" with
// "type": "acp", and answers the agent's "mcp/message" requests with them.
// An agent calls those servers through a [Caller]: [Caller.Transport] is an
// [mcp.Transport], so an agent written against the Go MCP SDK connects an
// [mcp.Client] to a declared server with no other change. A [Bridge]
// re-exports the declared servers as loopback Streamable HTTP endpoints for
// an agent whose MCP client takes only URLs.
//
// The binding speaks MCP 2026-07-28 only: each "mcp/message" request is
// independent and carries the MCP protocol version, the caller's client
// capabilities and its client info in the inner params' _meta. Failures of
// the binding itself are outer ACP errors ([Error], with the codes
// [CodeInvalidParams], [CodeRequestCancelled], [CodeResourceLimitExceeded],
// [CodeServerUnavailable] and [CodeBackendFailed]); an MCP error travels
// inside a successful response, in its "error" carrier ([MCPError]).
//
// This package is version-neutral: it speaks in [Message] and [Outcome]
// values. The packages acpmcpv1 and acpmcpv2 bind it to the generated
// acpv1 and acpv2 connections; a program that generates its own ACP
// packages writes the same few lines against its own types.
//
// Every file but this one is behind the build tag of the feature,
// unstable_mcp_over_acp (or the umbrella tag unstable), as the generated
// types are: the surface is unstable and may change or be removed. Without
// the tag the package is empty; read its full documentation with
// go doc -tags unstable_mcp_over_acp.
package acpmcp
