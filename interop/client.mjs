// Drives an ACP v1 agent (the command line after this script) with the
// TypeScript SDK's client and prints what each case saw as one JSON object:
// the Go interop tests run it against examples/agent.
import { spawn } from "node:child_process";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";

const [command, ...args] = process.argv.slice(2);
const child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });

// What each session was sent, and how its permission requests are answered.
const chunks = new Map();
const plans = new Map();
const answers = new Map();

const app = acp
  .client()
  .onNotification("session/update", ({ params }) => {
    const u = params.update;
    if (u.sessionUpdate === "agent_message_chunk" && u.content.type === "text") {
      chunks.get(params.sessionId).push(u.content.text);
    } else if (u.sessionUpdate === "plan") {
      plans.get(params.sessionId).push(u.entries);
    }
  })
  .onRequest("session/request_permission", async ({ params, agent }) => {
    const answer = answers.get(params.sessionId);
    if (answer === "cancel") {
      // Cancel the turn, then answer the pending request as cancelled:
      // the agent sees the cancellation first.
      await agent.notify("session/cancel", { sessionId: params.sessionId });
      return { outcome: { outcome: "cancelled" } };
    }
    const option = params.options.find((o) => o.optionId === answer);
    return { outcome: { outcome: "selected", optionId: option.optionId } };
  });

const conn = app.connect(acp.ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout)));
const agent = conn.agent;

async function prompt(text, answer) {
  const { sessionId } = await agent.request("session/new", { cwd: process.cwd(), mcpServers: [] });
  chunks.set(sessionId, []);
  plans.set(sessionId, []);
  answers.set(sessionId, answer);
  const { stopReason } = await agent.request("session/prompt", {
    sessionId,
    prompt: [{ type: "text", text }],
  });
  return { stopReason, chunks: chunks.get(sessionId), plans: plans.get(sessionId) };
}

async function failure(method, params) {
  try {
    return { result: await agent.request(method, params) };
  } catch (e) {
    return { code: e.code, message: e.message, data: e.data };
  }
}

const out = {};
// Before initialize, the agent refuses every other request.
out.beforeInitialize = await failure("session/new", { cwd: process.cwd(), mcpServers: [] });
out.initialize = await agent.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
out.echo = await prompt("hello from TypeScript", "allow");
out.reject = await prompt("reject me", "reject");
out.cancel = await prompt("cancel me", "cancel");
out.unknownMethod = await failure("session/unknown", { sessionId: "x" });
out.invalidParams = await failure("session/new", { cwd: 7, mcpServers: [] });
out.concurrent = await Promise.all([prompt("first", "allow"), prompt("second", "reject")]);
out.afterErrors = await prompt("still serving", "allow");
// An agent that plans sends its plan (a v2 agent's, through a bridge).
out.plan = await prompt("plan", "allow");
console.log(JSON.stringify(out));
conn.close();
child.stdin.end();
