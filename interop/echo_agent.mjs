// The echo agent of the interop tests, written with the TypeScript SDK: an
// ACP v1 agent that behaves as examples/agent does. It echoes each text
// block of a prompt, asks permission for a tool call "echo", reports the
// answer and ends the turn; a session/cancel during the turn ends it with
// stopReason "cancelled". agent.mjs serves it on stdin and stdout,
// agent_net.mjs over Streamable HTTP and WebSocket.
import * as acp from "@agentclientprotocol/sdk";

export function echoAgent() {
  let sessions = 0;
  const cancelled = new Map();
  return acp
    .agent()
    .onRequest("initialize", () => ({ protocolVersion: 1, authMethods: [] }))
    .onRequest("session/new", () => ({ sessionId: `ts_${++sessions}` }))
    .onNotification("session/cancel", ({ params }) => {
      if (cancelled.has(params.sessionId)) cancelled.set(params.sessionId, true);
    })
    .onRequest("session/prompt", async ({ params, client }) => {
      const { sessionId } = params;
      cancelled.set(sessionId, false);
      const say = (text) =>
        client.notify("session/update", {
          sessionId,
          update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text } },
        });
      try {
        for (const block of params.prompt) {
          if (block.type === "text") await say(block.text);
        }
        const answer = await client.request("session/request_permission", {
          sessionId,
          toolCall: { toolCallId: "call_1", title: "echo" },
          options: [
            { optionId: "allow", name: "Allow", kind: "allow_once" },
            { optionId: "reject", name: "Reject", kind: "reject_once" },
          ],
        });
        const outcome = answer.outcome.outcome === "selected" ? answer.outcome.optionId : "cancelled";
        await say(`permission: ${outcome}`);
        return { stopReason: cancelled.get(sessionId) ? "cancelled" : "end_turn" };
      } finally {
        cancelled.delete(sessionId);
      }
    });
}
