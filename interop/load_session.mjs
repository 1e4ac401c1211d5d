// Loads a session of an ACP v1 agent (the command line after this script)
// with the TypeScript SDK's v1 client, over stdio: it creates a session,
// runs one prompt turn (its permission request allowed), then loads the
// session again on the same connection and prints, as one JSON object,
// the updates of the turn, those that came between the session/load
// request and its answer (the replay), and the answer.
import { spawn } from "node:child_process";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";

const [command, ...args] = process.argv.slice(2);
const child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });

let updates = [];
const app = acp
  .client()
  .onNotification("session/update", ({ params }) => {
    updates.push(params.update);
  })
  .onRequest("session/request_permission", async () => ({ outcome: { outcome: "selected", optionId: "allow" } }));
const conn = app.connect(acp.ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout)));
const agent = conn.agent;

const initialize = await agent.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
const cwd = process.cwd();
const { sessionId } = await agent.request("session/new", { cwd, mcpServers: [] });
const { stopReason } = await agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "/plan A; B" }] });
const turn = updates;
updates = [];
const loaded = await agent.request("session/load", { sessionId, cwd, mcpServers: [] });
const replay = updates;
console.log(JSON.stringify({ initialize, stopReason, turn, replay, loaded }));
child.stdin.end();
