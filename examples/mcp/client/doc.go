// Command client is an ACP v1 client that gives the agent it starts one MCP
// tool through the ACP connection (MCP over ACP, an unstable surface): a
// "word_count" tool of a Go MCP SDK server that lives in this process. It
// prompts the agent once and prints what the agent says.
//
//	go build -tags unstable_mcp_over_acp -o client ./examples/mcp/client
//	go build -tags unstable_mcp_over_acp -o agent ./examples/mcp/agent
//	./client -prompt "one two three" -- ./agent
//
// It is built with the tag of the feature, unstable_mcp_over_acp (or
// unstable); built without it, it says so and exits 2.
package main
