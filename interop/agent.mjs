// An ACP v1 agent written with the TypeScript SDK, on stdin and stdout: the
// echo agent of echo_agent.mjs. The Go interop tests drive it with
// examples/client.
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";
import { echoAgent } from "./echo_agent.mjs";

const conn = echoAgent().connect(acp.ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin)));
await conn.closed;
