// Decodes JSON values with the zod schemas of the pinned TypeScript SDK, for
// the differential test of the generated Go decoders (internal/zoddiff).
//
//   node zoddiff.mjs v1|v2 stable|unstable < inputs > verdicts
//
// Each input line is {"def": "<$defs name>", "data": <JSON value>} and, when
// the Go decoder accepted the value, "back": <the Go value encoded again>.
// Each output line, in the same order, is {"missing": true} when the SDK has
// no zod schema for the definition, or zod's result for data — {"ok": true,
// "out": <parsed value>} or {"ok": false, "err": "<first issue>"} — with
// "back" holding zod's result for back the same way.
import { readFileSync } from "node:fs";

const [version, surface] = process.argv.slice(2);
if (!["v1", "v2"].includes(version) || !["stable", "unstable"].includes(surface)) {
  process.stderr.write("usage: node zoddiff.mjs v1|v2 stable|unstable\n");
  process.exit(2);
}
const dir = surface === "unstable" ? `${version}/unstable` : version;
const zod = await import(
  new URL(`./node_modules/@agentclientprotocol/sdk/dist/${dir}/schema/zod.gen.js`, import.meta.url)
);

const out = [];
for (const line of readFileSync(0, "utf8").split("\n")) {
  if (line === "") continue;
  const input = JSON.parse(line);
  const schema = zod["z" + input.def];
  if (schema === undefined) {
    out.push('{"missing":true}');
    continue;
  }
  const verdict = parse(schema, input.data);
  if ("back" in input) verdict.back = parse(schema, input.back);
  out.push(JSON.stringify(verdict));
}
// parse returns zod's result for one value.
function parse(schema, data) {
  let result;
  try {
    result = schema.safeParse(data);
  } catch (e) {
    return { ok: false, err: `threw: ${e}` };
  }
  if (result.success) return { ok: true, out: result.data === undefined ? null : result.data };
  const issue = result.error.issues[0];
  return { ok: false, err: `${issue.path.join(".")}: ${issue.message}` };
}

process.stdout.write(out.join("\n") + "\n");
