// Package acpmcpv2 binds MCP over ACP ([acpmcp]) to the generated ACP v2
// package, acpv2: a [Provider] for a client, a [Caller] for an agent, a
// [Bridge] for an agent whose MCP client takes only URLs, and the
// capability checks of the surface.
//
// Both sides bind by embedding: a client struct that embeds *[Provider]
// answers "mcp/message" requests, an agent struct that embeds *[Caller]
// receives "mcp/message" notifications. Embedding keeps every other method
// of the user's value visible to the connection, which finds optional
// methods by type assertion; a wrapping value would hide them.
//
// Every file but this one is behind the build tag of the feature,
// unstable_mcp_over_acp (or the umbrella tag unstable), as the generated
// types are; without the tag the package is empty. Read its full
// documentation with go doc -tags unstable_mcp_over_acp.
package acpmcpv2
