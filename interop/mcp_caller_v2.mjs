// An ACP v2 agent written with the TypeScript SDK's experimental v2 API, on
// stdin and stdout, that calls the MCP server its client declares with
// "type": "acp" through McpOverAcpCaller while it answers session/new:
// tools/list, tools/call of "echo" with a progress token, and an unknown
// server. It prints what it saw on stderr as one JSON line. The Go interop
// tests run it with a Go v2 client that serves a Go MCP SDK server through
// acpmcp's provider.
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk/experimental/v2/unstable";

const caller = new acp.McpOverAcpCaller({ clientInfo: { name: "ts-v2-agent", version: "1" } });
// Every mcp/message notification as it arrives: whether the caller still
// routes one to its request depends on when the v2 API runs the handler
// relative to the request's response.
const received = [];

async function useTools(client, id) {
  const report = {};
  report.list = await caller.request(client, id, "tools/list", {});
  const notes = [];
  report.call = await caller.request(
    client,
    id,
    "tools/call",
    { name: "echo", arguments: { text: "from TypeScript v2" }, _meta: { progressToken: "p1" } },
    { onNotification: (n) => notes.push(n) },
  );
  report.notes = notes;
  report.unknownServer = await caller
    .request(client, "missing", "tools/list", {})
    .catch((error) => ({ code: error.code, message: error.message }));
  return report;
}

const connection = acp
  .agent()
  .onRequest("initialize", () => ({
    protocolVersion: 2,
    info: { name: "ts-v2-agent", version: "1" },
    capabilities: { session: { mcp: { acp: {} } } },
    authMethods: [],
  }))
  .onNotification(acp.methods.agent.mcp.message, (cx) => {
    received.push(cx.params);
    return caller.handleNotification(cx);
  })
  .onRequest("session/new", async ({ params, client }) => {
    const servers = (params.mcpServers ?? []).filter(acp.isMcpServerAcp);
    const report = await useTools(client, servers[0]?.serverId).catch((error) => ({ error: String(error?.stack ?? error) }));
    report.servers = servers;
    report.received = received;
    process.stderr.write(JSON.stringify(report) + "\n");
    return { sessionId: "s_1" };
  })
  .onNotification("session/cancel", () => {})
  .connect(acp.ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin)));
await connection.closed;
