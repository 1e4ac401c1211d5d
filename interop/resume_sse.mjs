// Resumes an SSE stream of a resumable ACP agent with nothing but Node's
// fetch and the Last-Event-ID header, as any plain SSE client can, and
// prints what it saw as one JSON object:
//
//	node resume_sse.mjs http://HOST:PORT/acp
//
// It opens a connection and a session, starts a prompt, reads the session
// stream up to the permission request, drops the stream, opens it again
// after the cursor of its first event, and checks that what follows comes
// again identical; then it answers the permission request and reads the
// turn to its end. The Go interop tests run it against examples/agent
// -listen.
const url = process.argv[2];
if (!url || !/^https?:\/\//.test(url)) {
  console.error("usage: node resume_sse.mjs http://HOST:PORT/acp");
  process.exit(2);
}

async function post(body, conn, session) {
  const headers = { "content-type": "application/json" };
  if (conn) headers["acp-connection-id"] = conn;
  if (session) headers["acp-session-id"] = session;
  return fetch(url, { method: "POST", headers, body: JSON.stringify(body) });
}

// open GETs a stream and returns a reader of its events, {id, data}.
async function open(conn, session, lastEventId) {
  const controller = new AbortController();
  const headers = { accept: "text/event-stream", "acp-connection-id": conn };
  if (session) headers["acp-session-id"] = session;
  if (lastEventId) headers["last-event-id"] = lastEventId;
  const res = await fetch(url, { headers, signal: controller.signal });
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buf = "";
  return {
    status: res.status,
    abort: () => controller.abort(),
    async next() {
      for (;;) {
        const end = buf.indexOf("\n\n");
        if (end >= 0) {
          const block = buf.slice(0, end);
          buf = buf.slice(end + 2);
          const ev = { id: "", data: "" };
          for (const line of block.split("\n")) {
            if (line.startsWith("id: ")) ev.id = line.slice(4);
            else if (line.startsWith("data: ")) ev.data = line.slice(6);
          }
          if (ev.id || ev.data) return ev;
          continue;
        }
        const { value, done } = await reader.read();
        if (done) throw new Error("the stream ended");
        buf += decoder.decode(value, { stream: true });
      }
    },
  };
}

// until reads events until one whose data has text, returning them all.
async function until(stream, text) {
  const seen = [];
  for (;;) {
    const ev = await stream.next();
    seen.push(ev);
    if (ev.data.includes(text)) return seen;
  }
}

const init = await post({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: 1 } });
const conn = init.headers.get("acp-connection-id");
const initialized = await init.json();
const main = await open(conn);
await post({ jsonrpc: "2.0", id: 1, method: "session/new", params: { cwd: "/", mcpServers: [] } }, conn);
const created = (await until(main, '"sessionId"')).pop();
const sessionId = JSON.parse(created.data).result.sessionId;

const first = await open(conn, sessionId);
await post({ jsonrpc: "2.0", id: 2, method: "session/prompt", params: { sessionId, prompt: [{ type: "text", text: "one" }, { type: "text", text: "two" }] } }, conn, sessionId);
const before = (await until(first, "session/request_permission")).filter((ev) => ev.data);
first.abort();

// Resume after the first message: the rest again, identical.
const again = await open(conn, sessionId, before[0].id);
const replayed = [];
for (let i = 1; i < before.length; i++) replayed.push(await again.next());
const identical = replayed.every((ev, i) => ev.id === before[i + 1].id && ev.data === before[i + 1].data);
const state = await again.next();
const permission = JSON.parse(before[before.length - 1].data);
await post({ jsonrpc: "2.0", id: permission.id, result: { outcome: { outcome: "selected", optionId: "allow" } } }, conn, sessionId);
const rest = await until(again, '"stopReason"');
again.abort();
main.abort();

// A cursor the stream never gave is refused.
const refused = await open(conn, sessionId, "no-such-cursor");
const refusal = refused.status === 409 ? "409" : String(refused.status);
refused.abort();
await fetch(url, { method: "DELETE", headers: { "acp-connection-id": conn } });

console.log(JSON.stringify({
  advertised: initialized.result._meta?.["acp/transport"] ?? null,
  cursorsAreIds: before.every((ev) => JSON.parse(ev.data).params?._meta?.["acp/cursor"] === ev.id),
  replayed: replayed.length,
  identical,
  state: JSON.parse(state.data).params?._meta?.["acp/turnState"]?.state ?? null,
  said: rest.map((ev) => JSON.parse(ev.data)).filter((m) => m.params?.update?.content?.text).map((m) => m.params.update.content.text),
  stopReason: JSON.parse(rest[rest.length - 1].data).result.stopReason,
  refusal,
}));
