// Runs the TypeScript SDK's version router (AgentProtocolRouter) on the cases
// of a JSON array read from stdin, each {"name", "versions": ["v1", "v2"],
// "lines": [...]}, and prints one JSON object: each case's name with the
// lines the router wrote. Behind the router, each version is a stub agent
// that writes {"jsonrpc":"2.0","method":"_routed","params":{"route":N,"got":M}}
// for every message M it is handed. The Go tests of package acprouter run the
// same cases through acprouter with the same stubs and compare the lines.
import { text } from "node:stream/consumers";
import { agentProtocolRouter, ndJsonStream } from "@agentclientprotocol/sdk/experimental/v2";

function stub(route) {
  return {
    connect(stream) {
      const closed = (async () => {
        const reader = stream.readable.getReader();
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          const writer = stream.writable.getWriter();
          try {
            await writer.write({ jsonrpc: "2.0", method: "_routed", params: { route, got: value } });
          } finally {
            writer.releaseLock();
          }
        }
      })();
      return { closed };
    },
  };
}

async function run(c) {
  const encoder = new TextEncoder();
  const input = new ReadableStream({
    start(controller) {
      controller.enqueue(encoder.encode(c.lines.map((l) => l + "\n").join("")));
      controller.close();
    },
  });
  let written = "";
  const decoder = new TextDecoder();
  const output = new WritableStream({
    write(chunk) {
      written += decoder.decode(chunk);
    },
  });
  const router = agentProtocolRouter();
  if (c.versions.includes("v1")) router.withV1(stub(1));
  if (c.versions.includes("v2")) router.withV2(stub(2));
  const conn = router.connect(ndJsonStream(output, input));
  await conn.closed;
  // Let the last writes land.
  await new Promise((resolve) => setTimeout(resolve, 10));
  return written.split("\n").filter((l) => l !== "");
}

const cases = JSON.parse(await text(process.stdin));
const out = {};
for (const c of cases) {
  out[c.name] = await run(c);
}
console.log(JSON.stringify(out));
