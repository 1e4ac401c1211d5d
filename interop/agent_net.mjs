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
import { listen } from "./net_server.mjs";
import { echoAgent } from "./echo_agent.mjs";

const { url, stop } = await listen(process.argv[2] ?? "127.0.0.1:0", { createAgent: echoAgent });
console.error(`listening on ${url}`);
const onSignal = () => {
  stop().then(() => process.exit(0));
};
process.once("SIGINT", onSignal);
process.once("SIGTERM", onSignal);
