// Serves an ACP agent with the TypeScript SDK's AcpServer on Node's http
// server at http://HOST:PORT/acp, for Streamable HTTP and WebSocket (with
// ws): agent_net.mjs serves the echo agent with it, bench_agent.mjs the
// agent of the network benchmarks.
import { createServer } from "node:http";
import { WebSocketServer } from "ws";
import { AcpServer } from "@agentclientprotocol/sdk/experimental/server";
import {
  createNodeHttpHandler,
  createNodeWebSocketUpgradeHandler,
} from "@agentclientprotocol/sdk/experimental/node";

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
