// Serves the echo agent of echo_agent.mjs with the TypeScript SDK's
// AcpServer on Node's http server, at http://HOST:PORT/acp for Streamable
// HTTP and WebSocket (with ws):
//
//	node agent_net.mjs [HOST:PORT]
//
// HOST:PORT defaults to 127.0.0.1:0, a free port. Once it accepts
// connections it prints one line, "listening on http://HOST:PORT/acp", to
// stderr, as examples/agent -listen does; SIGINT and SIGTERM close every
// connection and stop it. The Go interop tests drive it with examples/client
// -connect.
import { createServer } from "node:http";
import { WebSocketServer } from "ws";
import { AcpServer } from "@agentclientprotocol/sdk/experimental/server";
import {
  createNodeHttpHandler,
  createNodeWebSocketUpgradeHandler,
} from "@agentclientprotocol/sdk/experimental/node";
import { echoAgent } from "./echo_agent.mjs";

export const PATH = "/acp";

// listen serves an AcpServer made of options on addr ("HOST:PORT") at PATH
// and resolves, once it accepts connections, to its URL and a stop function.
export async function listen(addr, options) {
  const [host, port] = splitHostPort(addr);
  const acpServer = new AcpServer(options);
  const handleHttp = createNodeHttpHandler(acpServer);
  const wss = new WebSocketServer({ noServer: true });
  const handleUpgrade = createNodeWebSocketUpgradeHandler(acpServer, wss);
  const onPath = (req) => new URL(req.url ?? "/", "http://localhost").pathname === PATH;
  const server = createServer((req, res) => {
    if (!onPath(req)) {
      res.writeHead(404, { "Content-Type": "text/plain" }).end("Not Found");
      return;
    }
    handleHttp(req, res);
  });
  server.on("upgrade", (req, socket, head) => {
    if (!onPath(req)) {
      socket.end("HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n");
      return;
    }
    handleUpgrade(req, socket, head);
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, resolve);
  });
  const { address, port: realPort } = server.address();
  const shownHost = address.includes(":") ? `[${address}]` : address;
  const stop = async () => {
    await acpServer.close();
    wss.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
  return { url: `http://${shownHost}:${realPort}${PATH}`, stop };
}

function splitHostPort(addr) {
  const i = addr.lastIndexOf(":");
  if (i < 0) throw new Error(`listen address ${addr}: want HOST:PORT`);
  return [addr.slice(0, i).replace(/^\[(.*)\]$/, "$1"), Number(addr.slice(i + 1))];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { url, stop } = await listen(process.argv[2] ?? "127.0.0.1:0", { createAgent: echoAgent });
  console.error(`listening on ${url}`);
  const onSignal = () => {
    stop().then(() => process.exit(0));
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
}
