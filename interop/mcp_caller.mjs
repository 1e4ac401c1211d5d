// An ACP v1 agent written with the TypeScript SDK, on stdin and stdout, that
// calls the MCP server its client declares with "type": "acp" through
// McpOverAcpCaller, when prompted: tools/list, tools/call of "echo" with a
// progress token, an unknown tool, an unknown server, and "wait" cancelled
// after 100 ms. It prints what it saw on stderr as one JSON line. The Go
// interop tests run it with a Go client that serves a Go MCP SDK server
// through acpmcp's provider.
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk/unstable";

const caller = new acp.McpOverAcpCaller({ clientInfo: { name: "ts-agent", version: "1" } });
let servers = [];

const failure = (error) => ({ code: error.code, message: error.message });

async function useTools(client) {
  const id = servers[0].serverId;
  const report = { servers };
  report.list = await caller.request(client, id, "tools/list", {});
  const notes = [];
  report.call = await caller.request(
    client,
    id,
    "tools/call",
    { name: "echo", arguments: { text: "from TypeScript" }, _meta: { progressToken: "p1" } },
    { onNotification: (n) => notes.push(n) },
  );
  report.notes = notes;
  report.unknownTool = await caller.request(client, id, "tools/call", { name: "nope", arguments: {} });
  report.unknownServer = await caller.request(client, "missing", "tools/list", {}).catch(failure);
  const abort = new AbortController();
  setTimeout(() => abort.abort(), 100);
  report.cancelled = await caller
    .request(client, id, "tools/call", { name: "wait", arguments: {} }, { signal: abort.signal })
    .catch(failure);
  return report;
}

const connection = acp
  .agent()
  .onRequest(acp.methods.agent.initialize, async () => ({
    protocolVersion: 1,
    agentCapabilities: { mcpCapabilities: { acp: true } },
  }))
  .onNotification(acp.methods.agent.mcp.message, caller.handleNotification)
  .onRequest(acp.methods.agent.session.new, async ({ params }) => {
    servers = params.mcpServers.filter(acp.isMcpServerAcp);
    return { sessionId: "s1" };
  })
  .onRequest(acp.methods.agent.session.prompt, async ({ client }) => {
    const report = await useTools(client).catch((error) => ({ error: String(error?.stack ?? error) }));
    process.stderr.write(JSON.stringify(report) + "\n");
    return { stopReason: "end_turn" };
  })
  .connect(acp.ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin)));
await connection.closed;
