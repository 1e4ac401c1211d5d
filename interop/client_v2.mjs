// Drives an ACP v2 agent (the command line after this script) with the
// TypeScript SDK's experimental v2 client and prints what each case saw as
// one JSON object, as client.mjs does for v1: the Go interop tests run it
// against examples/agent. A v2 prompt turn is answered at once, with the
// user message's id, and ends with an idle state update that carries the
// stop reason.
import { spawn } from "node:child_process";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk/experimental/v2";

const [command, ...args] = process.argv.slice(2);
const child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });

// What each session was sent, how its permission requests are answered,
// and who waits for its turn to end.
const chunks = new Map();
const answers = new Map();
const idle = new Map();

const app = acp
  .client()
  .onNotification("session/update", ({ params }) => {
    const u = params.update;
    if (u.sessionUpdate === "agent_message_chunk" && u.content.type === "text") {
      chunks.get(params.sessionId).push(u.content.text);
    } else if (u.sessionUpdate === "state_update" && u.state === "idle") {
      idle.get(params.sessionId)?.(u.stopReason);
    }
  })
  .onRequest("session/request_permission", async ({ params, agent }) => {
    const answer = answers.get(params.sessionId);
    if (answer === "cancel") {
      await agent.notify("session/cancel", { sessionId: params.sessionId });
      return { outcome: { outcome: "cancelled" } };
    }
    const option = params.options.find((o) => o.optionId === answer);
    return { outcome: { outcome: "selected", optionId: option.optionId } };
  });

const conn = app.connect(acp.ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout)));
const agent = conn.agent;

async function prompt(text, answer) {
  const { sessionId } = await agent.request("session/new", { cwd: process.cwd() });
  chunks.set(sessionId, []);
  answers.set(sessionId, answer);
  const ended = new Promise((resolve) => idle.set(sessionId, resolve));
  const { messageId } = await agent.request("session/prompt", {
    sessionId,
    prompt: [{ type: "text", text }],
  });
  const stopReason = await ended;
  return { accepted: typeof messageId === "string", stopReason, chunks: chunks.get(sessionId) };
}

async function failure(method, params) {
  try {
    return { result: await agent.request(method, params) };
  } catch (e) {
    return { code: e.code, message: e.message, data: e.data };
  }
}

const out = {};
out.initialize = await agent.request("initialize", {
  protocolVersion: 2,
  info: { name: "ts-v2-client", version: "1.0.0" },
  capabilities: {},
});
out.echo = await prompt("hello from TypeScript", "allow");
out.reject = await prompt("reject me", "reject");
out.cancel = await prompt("cancel me", "cancel");
out.unknownMethod = await failure("session/unknown", { sessionId: "x" });
out.invalidParams = await failure("session/new", { cwd: 7 });
out.concurrent = await Promise.all([prompt("first", "allow"), prompt("second", "reject")]);
out.afterErrors = await prompt("still serving", "allow");
console.log(JSON.stringify(out));
conn.close();
child.stdin.end();
