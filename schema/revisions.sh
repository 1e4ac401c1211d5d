#!/usr/bin/env bash
# revisions.sh OUT.tar.gz
#
# Builds the corpus of every published schema layout of the npm package
# @agentclientprotocol/sdk: each version is packed with npm, the JSON files
# under its package/schema/ folder are hashed, and versions that ship the
# same files (same paths, same bytes) form one layout. The archive holds
#   index.json        [{"versions": [...], "files": {"v1/schema.json": "<sha256>", ...}}, ...]
#   files/<sha256>    each distinct schema file once
# written deterministically (sorted names, fixed times and owners, gzip -n),
# so rerunning it against the same registry gives the same bytes.
#
# Needs: bash, npm, node, tar, gzip, sha256sum; run by `make revisions-corpus`.
set -euo pipefail

PACKAGE='@agentclientprotocol/sdk'
[ "$#" -eq 1 ] || { echo "usage: $0 OUT.tar.gz" >&2; exit 2; }
OUT=$1
for tool in npm node tar gzip sha256sum; do
	command -v "$tool" >/dev/null 2>&1 || { echo "revisions.sh: $tool not found" >&2; exit 1; }
done

WORK=$(mktemp -d)
trap 'rm -rf -- "$WORK"' EXIT
mkdir -p "$WORK/corpus/files" "$WORK/packs"

VERSIONS=$(npm view "$PACKAGE" versions --json | node -e '
let s = ""; process.stdin.on("data", d => s += d).on("end", () => {
  const v = JSON.parse(s); console.log((Array.isArray(v) ? v : [v]).join(" "));
});')

: >"$WORK/manifest.tsv"
for v in $VERSIONS; do
	dir="$WORK/packs/$v"
	mkdir -p "$dir"
	(cd "$dir" && npm pack "$PACKAGE@$v" --silent >/dev/null) || { echo "revisions.sh: npm pack $v failed" >&2; exit 1; }
	tar -xzf "$dir"/*.tgz -C "$dir"
	[ -d "$dir/package/schema" ] || { echo "revisions.sh: $v ships no schema/ folder, skipped" >&2; continue; }
	(cd "$dir/package/schema" && find . -name '*.json' -type f | sed 's#^\./##' | LC_ALL=C sort) | while read -r f; do
		sum=$(sha256sum "$dir/package/schema/$f" | cut -d' ' -f1)
		cp "$dir/package/schema/$f" "$WORK/corpus/files/$sum"
		printf '%s\t%s\t%s\n' "$v" "$f" "$sum" >>"$WORK/manifest.tsv"
	done
	rm -rf "$dir"
done

# Group versions by their file set, in publishing order.
node -e '
const fs = require("fs");
const rows = fs.readFileSync(process.argv[1], "utf8").trim().split("\n").map(l => l.split("\t"));
const byVersion = new Map();
for (const [v, f, sum] of rows) {
  if (!byVersion.has(v)) byVersion.set(v, {});
  byVersion.get(v)[f] = sum;
}
const layouts = [];
const seen = new Map();
for (const [v, files] of byVersion) {
  const key = JSON.stringify(Object.keys(files).sort().map(k => [k, files[k]]));
  if (!seen.has(key)) { seen.set(key, { versions: [], files }); layouts.push(seen.get(key)); }
  seen.get(key).versions.push(v);
}
fs.writeFileSync(process.argv[2], JSON.stringify(layouts, null, 1) + "\n");
' "$WORK/manifest.tsv" "$WORK/corpus/index.json"

(cd "$WORK/corpus" && LC_ALL=C tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -cf - index.json files) |
	gzip -n -9 >"$WORK/out.tar.gz"
mv "$WORK/out.tar.gz" "$OUT"
echo "revisions.sh: $(grep -c '"versions"' "$WORK/corpus/index.json") layouts, $(ls "$WORK/corpus/files" | wc -l) distinct files -> $OUT"
