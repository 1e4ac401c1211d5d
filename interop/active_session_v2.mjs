// Drives an ACP v2 agent (the command line after this script) through the
// TypeScript SDK's ActiveSession (experimental v2 client): the echo
// contract's turns read with nextUpdate(), session/list, session/resume
// with its current-state snapshot, and session/close, then prints what it
// saw as one JSON object. The Go interop tests run it against
// examples/agent.
import { spawn } from "node:child_process";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk/experimental/v2";

const [command, ...args] = process.argv.slice(2);
const child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });

// How each session's permission requests are answered.
const answers = new Map();

const conn = acp
  .client()
  .onRequest("session/request_permission", async ({ params, agent }) => {
    const answer = answers.get(params.sessionId);
    if (answer === "cancel") {
      await agent.notify("session/cancel", { sessionId: params.sessionId });
      return { outcome: { outcome: "cancelled" } };
    }
    return { outcome: { outcome: "selected", optionId: answer } };
  })
  .connect(acp.ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout)));
const agent = conn.agent;

// describe names one update as "kind:detail".
function describe(message, userMessageId) {
  const u = message.update;
  if (message.kind === "stop") return `stop:${message.stopReason}`;
  switch (u.sessionUpdate) {
    case "user_message":
      return `user_message:${u.messageId === userMessageId ? "same id" : "other id"}:${u.content?.map((c) => c.text).join("")}`;
    case "state_update":
      return `state:${u.state}`;
    case "agent_message_chunk":
      return `chunk:${u.content.text}`;
    default:
      return u.sessionUpdate;
  }
}

// turn prompts session with text, the permission answered with answer,
// and returns the updates up to and including the idle one.
async function turn(session, text, answer) {
  answers.set(session.sessionId, answer);
  const { messageId } = await session.prompt(text);
  const updates = [];
  for (;;) {
    const message = await session.nextUpdate();
    updates.push(describe(message, messageId));
    if (message.kind === "stop") return { messageId, updates };
  }
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
  info: { name: "ts-v2-active-session", version: "1.0.0" },
  capabilities: {},
});
const session = await agent.buildSession(process.cwd()).start();
const other = await agent.buildSession(process.cwd()).start();
out.sessionIds = [session.sessionId, other.sessionId];
out.echo = await turn(session, "hello from TypeScript", "allow");
out.reject = await turn(session, "reject me", "reject");
out.cancel = await turn(session, "cancel me", "cancel");
out.list = await agent.request("session/list", { cwd: process.cwd() });
session.dispose();

const resumed = agent.attachSession({ sessionId: out.sessionIds[0] });
out.resume = await agent.request("session/resume", { sessionId: out.sessionIds[0], cwd: process.cwd() });
const snapshot = await resumed.nextUpdate();
out.snapshot = describe(snapshot);
out.afterResume = await turn(resumed, "again", "allow");
resumed.dispose();
out.close = await agent.request("session/close", { sessionId: out.sessionIds[0] });
out.promptAfterClose = await failure("session/prompt", {
  sessionId: out.sessionIds[0],
  prompt: [{ type: "text", text: "gone" }],
});
out.listAfterClose = await agent.request("session/list", {});
other.dispose();
console.log(JSON.stringify(out));
conn.close();
child.stdin.end();
