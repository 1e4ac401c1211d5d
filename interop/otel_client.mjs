// Drives the ACP v1 agent on the other end of its standard input and
// output with the TypeScript SDK's client: initialize, session/new, and a
// session/prompt whose _meta carries the W3C trace context given as the
// first argument (traceparent), set by hand as a client without
// OpenTelemetry would. The Go tests of acpotel run it against a traced Go
// agent; it prints the prompt's stop reason on standard error.
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";

const traceparent = process.argv[2];
const app = acp
  .client()
  .onNotification("session/update", () => {})
  .onRequest("session/request_permission", async ({ params }) => ({
    outcome: { outcome: "selected", optionId: params.options[0].optionId },
  }))
  .onRequest("fs/read_text_file", async () => ({ content: "text" }));
const conn = app.connect(acp.ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin)));
const agent = conn.agent;
await agent.request("initialize", {
  protocolVersion: 1,
  clientCapabilities: { fs: { readTextFile: true } },
});
const { sessionId } = await agent.request("session/new", { cwd: "/", mcpServers: [] });
const { stopReason } = await agent.request("session/prompt", {
  sessionId,
  prompt: [{ type: "text", text: "hi" }],
  _meta: { traceparent, other: "kept" },
});
console.error(stopReason);
process.exit(0);
