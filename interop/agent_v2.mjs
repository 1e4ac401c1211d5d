// A minimal ACP v2 agent written with the TypeScript SDK's experimental v2
// API, on stdin and stdout: initialize, session/new and session/cancel. The
// Go interop tests send it the lines they send a Go v2 agent, to compare
// what each answers before and after initialize.
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk/experimental/v2";

let sessions = 0;
const app = acp
  .agent()
  .onRequest("initialize", () => ({ protocolVersion: 2, info: { name: "a", version: "1" }, authMethods: [] }))
  .onRequest("session/new", () => ({ sessionId: `s_${++sessions}` }))
  .onNotification("session/cancel", () => {});

const conn = app.connect(acp.ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin)));
await conn.closed;
