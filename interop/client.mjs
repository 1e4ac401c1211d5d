// Drives an ACP v1 agent (the command line after this script) over stdio
// with the TypeScript SDK's client through the cases of client_cases.mjs and
// prints what each case saw as one JSON object: the Go interop tests run it
// against examples/agent.
import { spawn } from "node:child_process";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";
import { runCases } from "./client_cases.mjs";

const [command, ...args] = process.argv.slice(2);
const child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
const out = await runCases(acp.ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout)));
console.log(JSON.stringify(out));
child.stdin.end();
