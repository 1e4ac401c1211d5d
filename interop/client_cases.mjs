// The cases the interop tests drive an ACP v1 agent through with the
// TypeScript SDK's client: echo, permission allowed and rejected, cancel
// during a permission request, an unknown method, invalid params, two
// sessions prompting at once, and a prompt after the errors. client.mjs runs
// them over stdio, client_net.mjs over Streamable HTTP or WebSocket.
import * as acp from "@agentclientprotocol/sdk";

// runCases connects to the agent over stream, runs every case and returns
// what each saw, keyed by case. With beforeInitialize it first sends
// session/new before initialize (over stdio; the network transports open
// their connection with initialize).
export async function runCases(stream, { beforeInitialize = true } = {}) {
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

  const conn = app.connect(stream);
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
  if (beforeInitialize) {
    // Before initialize, the agent refuses every other request.
    out.beforeInitialize = await failure("session/new", { cwd: process.cwd(), mcpServers: [] });
  }
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
  conn.close();
  await conn.closed.catch(() => {}); // closing rejects what is still pending
  return out;
}
