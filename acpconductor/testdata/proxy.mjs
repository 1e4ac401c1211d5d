// A proxy on raw JSON-RPC in the schema's dialect (proxy/initialize,
// proxy/successor), for the tests of the conductor: it forwards every
// message with ids of its own on each side, and with an argument puts a
// text block of it first in every session/prompt.
import { createInterface } from "node:readline";

const inject = process.argv[2] ?? "";
let next = 0;
const pending = new Map(); // id sent -> id to answer with

function write(m) {
  process.stdout.write(JSON.stringify({ jsonrpc: "2.0", ...m }) + "\n");
}

function forward(m, method, params, wrapped) {
  const out = {};
  if (m.id !== undefined) {
    next++;
    pending.set(next, m.id);
    out.id = next;
  }
  if (wrapped) {
    out.method = "proxy/successor";
    out.params = params === undefined ? { method } : { method, params };
  } else {
    out.method = method;
    if (params !== undefined) out.params = params;
  }
  write(out);
}

createInterface({ input: process.stdin }).on("line", (line) => {
  if (!line.trim()) return;
  const m = JSON.parse(line);
  if (m.method === undefined) {
    const id = pending.get(m.id);
    pending.delete(m.id);
    write("error" in m ? { id, error: m.error } : { id, result: m.result });
  } else if (m.method === "proxy/successor") {
    forward(m, m.params.method, m.params.params, false);
  } else {
    let params = m.params;
    const method = m.method === "proxy/initialize" ? "initialize" : m.method;
    if (method === "session/prompt" && inject) {
      params = { ...params, prompt: [{ type: "text", text: inject }, ...params.prompt] };
    }
    forward(m, method, params, true);
  }
});
