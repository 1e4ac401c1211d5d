// An ACP v1 client written with the TypeScript SDK, on stdin and stdout, that
// gives the agent one MCP server over ACP ("type": "acp") with
// McpOverAcpProvider and a handler: server/discover, tools/list, and a
// "shout" tool that reports progress; "wait" waits until it is cancelled.
// It prompts once, then prints on stderr, as one JSON line, the stop reason
// and what its handler saw. The Go interop tests run it with a Go agent that
// calls the server through acpmcp's caller.
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk/unstable";

const seen = [];
const provider = new acp.McpOverAcpProvider();
const app = acp
  .client()
  .onRequest(acp.methods.client.mcp.message, provider.handleRequest)
  .onRequest(acp.methods.client.session.requestPermission, async () => ({ outcome: { outcome: "cancelled" } }))
  .onNotification(acp.methods.client.session.update, () => {});
const connection = app.connect(acp.ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin)));

const shout = {
  name: "shout",
  description: "Upper-cases text.",
  inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
};

async function handler(cx) {
  seen.push({ method: cx.method, protocolVersion: cx.protocolVersion, clientInfo: cx.clientInfo ?? null });
  switch (cx.method) {
    case "server/discover":
      return {
        result: {
          resultType: "complete",
          supportedVersions: [acp.MCP_PROTOCOL_VERSION],
          capabilities: { tools: {} },
          _meta: { "io.modelcontextprotocol/serverInfo": { name: "ts-tools", version: "1" } },
        },
      };
    case "tools/list":
      return { result: { resultType: "complete", tools: [shout] } };
    case "tools/call": {
      if (cx.params?.name === "wait") {
        await new Promise((resolve) => cx.signal.addEventListener("abort", resolve, { once: true }));
        seen.push({ method: "wait", aborted: cx.signal.aborted });
        throw cx.signal.reason;
      }
      if (cx.params?.name !== "shout") {
        throw new acp.McpProtocolError(-32602, `Unknown tool: ${cx.params?.name}`);
      }
      const token = cx.params?._meta?.progressToken;
      if (token !== undefined) {
        await cx.notify("notifications/progress", { progressToken: token, progress: 1, total: 1 });
      }
      const text = String(cx.params.arguments?.text ?? "").toUpperCase();
      return { result: { resultType: "complete", content: [{ type: "text", text }] } };
    }
    default:
      throw new acp.McpProtocolError(-32601, `Method not found: ${cx.method}`);
  }
}

const tools = provider.registerServer(connection.agent, { name: "ts-tools", handler, maxActiveRequests: 1 });
await connection.agent.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
const session = await connection.agent.request("session/new", { cwd: "/", mcpServers: [tools.declaration] });
const result = await connection.agent.request("session/prompt", {
  sessionId: session.sessionId,
  prompt: [{ type: "text", text: "use the tools" }],
});
process.stderr.write(JSON.stringify({ stopReason: result.stopReason, seen }) + "\n");
connection.close();
