// Command agent is an ACP v1 agent, on stdin and stdout, that uses the MCP
// servers its client declares with "type": "acp" (MCP over ACP, an unstable
// surface) as any Go MCP SDK client would: on each prompt it calls the
// client's "word_count" tool with the prompt's text and says the answer.
// See examples/mcp/client.
//
// It is built with the tag of the feature, unstable_mcp_over_acp (or
// unstable); built without it, it says so and exits 2.
package main
