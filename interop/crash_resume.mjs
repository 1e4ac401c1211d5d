// Crash and resume with the TypeScript SDK's client, v1 or v2 (the first
// argument), against the agent of the command line after it, which keeps
// its sessions in a store: it creates a session and prompts; once the
// turn asks for permission it prints {"asked":true} and waits for a line
// on its stdin, then kills the agent with SIGKILL, starts it again, and
// loads (v1) or resumes with replayFrom start (v2) the session. It prints,
// as one JSON object, the updates of the turn before the kill, those
// that came between the load or resume request and its answer, and the
// answer.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { Readable, Writable } from "node:stream";
import * as v1 from "@agentclientprotocol/sdk";
import * as v2 from "@agentclientprotocol/sdk/experimental/v2";

const [version, command, ...args] = process.argv.slice(2);
const acp = version === "2" ? v2 : v1;
const stdin = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
const cwd = process.cwd();

// start starts the agent and connects to it; onPermission is called for
// each permission request, which is never answered.
function start(onPermission) {
  const child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
  const updates = [];
  const conn = acp
    .client()
    .onNotification("session/update", ({ params }) => {
      updates.push(params.update);
    })
    .onRequest("session/request_permission", () => {
      onPermission();
      return new Promise(() => {});
    })
    .connect(acp.ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout)));
  return { child, updates, agent: conn.agent };
}

const init = version === "2" ? { protocolVersion: 2, info: { name: "crash", version: "1" } } : { protocolVersion: 1, clientCapabilities: {} };
let asked;
const permission = new Promise((resolve) => (asked = resolve));
const first = start(asked);
await first.agent.request("initialize", init);
const { sessionId } = await first.agent.request("session/new", version === "2" ? { cwd } : { cwd, mcpServers: [] });
first.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "one" }, { type: "text", text: "two" }] }).catch(() => {});
await permission;
const sent = [...first.updates];
console.log(JSON.stringify({ asked: true }));
await stdin.next();
first.child.kill("SIGKILL");
await new Promise((resolve) => first.child.once("exit", resolve));

const second = start(() => {});
await second.agent.request("initialize", init);
const answer =
  version === "2"
    ? await second.agent.request("session/resume", { sessionId, cwd, replayFrom: { type: "start" } })
    : await second.agent.request("session/load", { sessionId, cwd, mcpServers: [] });
// The v2 client may hand over the answer before the updates read ahead of
// it: the resume's last update is the state update.
for (let i = 0; version === "2" && i < 500 && !second.updates.some((u) => u.sessionUpdate === "state_update"); i++) {
  await new Promise((resolve) => setTimeout(resolve, 10));
}
console.log(JSON.stringify({ sent, replay: second.updates, answer }));
second.child.stdin.end();
