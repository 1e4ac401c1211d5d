// Drives an ACP v1 agent at a URL with the TypeScript SDK's client through
// the cases of client_cases.mjs and prints what each case saw as one JSON
// object:
//
//	node client_net.mjs http://HOST:PORT/acp   (Streamable HTTP)
//	node client_net.mjs ws://HOST:PORT/acp     (WebSocket)
//
// The Go interop tests run it against examples/agent -listen.
import { createHttpStream } from "@agentclientprotocol/sdk/experimental/http-client";
import { createWebSocketStream } from "@agentclientprotocol/sdk/experimental/ws-client";
import { WebSocket } from "ws";
import { runCases } from "./client_cases.mjs";

const url = process.argv[2];
if (!url || !/^(https?|wss?):\/\//.test(url)) {
  console.error("usage: node client_net.mjs http://HOST:PORT/acp | ws://HOST:PORT/acp");
  process.exit(2);
}
// Both profiles open the ACP connection with initialize: the TypeScript
// SDK's client and server take no other first message.
const stream = url.startsWith("ws") ? createWebSocketStream(url, { WebSocket }) : createHttpStream(url);
const out = await runCases(stream, { beforeInitialize: false });
console.log(JSON.stringify(out));
