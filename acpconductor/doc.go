// Package acpconductor runs a chain of ACP proxies in front of an agent
// and presents it as one agent: the conductor of the proxy-chains design
// (the schema's unstable proxy/initialize and proxy/successor). Command
// acpconductor is its command line (see Main).
//
// Run starts each component with package acpexec and routes the chain's
// JSON-RPC messages without decoding them into types: it sends
// proxy/initialize to every component that has a successor and initialize
// to the agent; a message a proxy wraps in proxy/successor goes to its
// successor unwrapped, and what a successor sends goes to its proxy wrapped
// the same way; what a component sends plainly goes to its predecessor.
// Every request gets an id of the conductor's own on each hop, and its
// answer goes back with the id it came with, byte for byte ("abc", 1.50);
// a message is otherwise forwarded with its bytes, and an envelope's
// params are the wrapped message's own bytes. A $/cancel_request follows
// the request it names, with that request's id on the next hop.
//
// With Options.Proxy the chain runs as a proxy itself (nested chains): its
// conductor sends it proxy/initialize, every component is a proxy, and
// what the last one sends its successor goes to the conductor in
// proxy/successor.
//
// Every component ends with the chain: its input closed, then SIGTERM,
// then SIGKILL to its process group. A component that ends while the
// chain runs ends it with a *ComponentError naming the component and its
// exit status, and each request of the client still in the chain is
// answered with an error.
//
// Built with the tag of MCP over ACP (unstable_mcp_over_acp, or the
// umbrella unstable), the conductor bridges the MCP servers with "acp"
// transport that the client or a proxy declares, for an agent whose
// answer to initialize does not advertise them: in session/new,
// session/load, session/resume and session/fork each such entry of
// mcpServers reaches the agent served by a loopback Streamable HTTP
// endpoint of the conductor's own (package acpmcp's Bridge), closed with
// the chain: as an "http" entry where the agent advertises http MCP
// servers, otherwise as a "stdio" entry that runs "acpconductor mcp-stdio
// URL" (Options.MCPStdioCommand) for an agent that takes stdio ones; each
// MCP request there goes up the chain as the "mcp/message" request the
// agent would have sent; where the agent
// advertises its MCP capabilities, the initialize result passed on adds
// "acp" to them. Without the tag, in
// proxy mode, or for an agent that takes "acp" servers, they pass
// unchanged.
//
// Options.WireLog records every hop, one JSON line per message, in the
// records of the generated connections' wire logs with the hop's name
// added.
package acpconductor
