// Drives an ACP v2 agent (the command line after this script) with the
// TypeScript SDK's experimental v2 client: initialize, session/new, one
// session/prompt, then waits for the state update that ends the turn, and
// prints what it saw as one JSON object: the answers, the text chunks, and
// every session update in order (its kind, message id, state and stop
// reason, and a user message's text). The Go tests run it against the
// README's v2 agent, built in a module of its own.
import { spawn } from "node:child_process";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk/experimental/v2";

const [command, ...args] = process.argv.slice(2);
const child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });

const chunks = [];
const updates = [];
let turnEnded;
const idle = new Promise((resolve) => (turnEnded = resolve));

const app = acp
  .client()
  .onNotification("session/update", ({ params }) => {
    const u = params.update;
    updates.push({
      sessionId: params.sessionId,
      sessionUpdate: u.sessionUpdate,
      messageId: u.messageId,
      state: u.state,
      stopReason: u.stopReason,
      text: u.sessionUpdate === "user_message" ? (u.content ?? []).map((b) => b.text).join("") : undefined,
    });
    if (u.sessionUpdate === "agent_message_chunk" && u.content.type === "text") {
      chunks.push({ messageId: u.messageId, text: u.content.text });
    }
    if (u.sessionUpdate === "state_update" && u.state === "idle") {
      turnEnded(u.stopReason);
    }
  })
  .onRequest("session/request_permission", () => ({ outcome: { outcome: "cancelled" } }));

const conn = app.connect(acp.ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout)));
const agent = conn.agent;

const out = {};
out.initialize = await agent.request("initialize", { protocolVersion: 2, info: { name: "ts-client", version: "1.0" } });
const { sessionId } = await agent.request("session/new", { cwd: process.cwd() });
out.sessionId = sessionId;
out.prompt = await agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "hello from TypeScript" }] });
out.stopReason = await idle;
out.chunks = chunks;
out.updates = updates;
console.log(JSON.stringify(out));
conn.close();
child.stdin.end();
