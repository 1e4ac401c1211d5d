// The TypeScript side of the network benchmarks in bench/: an ACP v1 agent
// served by the TypeScript SDK's AcpServer (see net_server.mjs) that answers
// a prompt whose first text block is a number N with N agent message chunks
// before it ends the turn.
//
//	node bench_agent.mjs [HOST:PORT]
//
// It prints "listening on http://HOST:PORT/acp" to stderr once it accepts
// connections, collects its garbage on SIGUSR2 when node runs with
// --expose-gc (before the benchmark reads its resident memory, as the Go
// agent does), and stops on SIGINT or SIGTERM.
import * as acp from "@agentclientprotocol/sdk";
import { listen } from "./net_server.mjs";

function benchAgent() {
  let sessions = 0;
  return acp
    .agent()
    .onRequest("initialize", () => ({ protocolVersion: 1, authMethods: [] }))
    .onRequest("session/new", () => ({ sessionId: `bench_${++sessions}` }))
    .onRequest("session/prompt", async ({ params, client }) => {
      const first = params.prompt.find((b) => b.type === "text");
      const n = Math.min(Number(first?.text) || 0, 1_000_000);
      for (let i = 0; i < n; i++) {
        await client.notify("session/update", {
          sessionId: params.sessionId,
          update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "chunk" } },
        });
      }
      return { stopReason: "end_turn" };
    });
}

process.on("SIGUSR2", () => globalThis.gc?.());
const { url, stop } = await listen(process.argv[2] ?? "127.0.0.1:0", { createAgent: benchAgent });
console.error(`listening on ${url}`);
const onSignal = () => {
  stop().then(() => process.exit(0));
};
process.once("SIGINT", onSignal);
process.once("SIGTERM", onSignal);
