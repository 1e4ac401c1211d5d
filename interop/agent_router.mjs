// An agent written with the TypeScript SDK that serves both protocol
// versions through the SDK's version router (AgentProtocolRouter), on stdin
// and stdout: a v1 agent as in agent.mjs and a v2 agent as in agent_v2.mjs,
// each with initialize, session/new and session/cancel. The Go interop tests
// send it the lines they send examples/agent, which serves both versions
// through acprouter, to compare what each answers before initialize.
import { Readable, Writable } from "node:stream";
import * as v1 from "@agentclientprotocol/sdk";
import * as v2 from "@agentclientprotocol/sdk/experimental/v2";

let sessions = 0;
const agentV1 = v1
  .agent()
  .onRequest("initialize", () => ({
    protocolVersion: 1,
    authMethods: [],
    agentInfo: { name: "acpgen-example-agent", version: "1.0.0" },
  }))
  .onRequest("session/new", () => ({ sessionId: `sess_${++sessions}` }))
  .onNotification("session/cancel", () => {});
const agentV2 = v2
  .agent()
  .onRequest("initialize", () => ({ protocolVersion: 2, info: { name: "a", version: "1" }, authMethods: [] }))
  .onRequest("session/new", () => ({ sessionId: `sess_${++sessions}` }))
  .onNotification("session/cancel", () => {});

const conn = v2
  .agentProtocolRouter()
  .withV1(agentV1)
  .withV2(agentV2)
  .connect(v2.ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin)));
await conn.closed;
