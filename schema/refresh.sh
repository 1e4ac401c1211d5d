#!/usr/bin/env bash
# refresh.sh VERSION [DEST]
#
# Pins the JSON Schema files shipped in the npm package
# @agentclientprotocol/sdk at VERSION into DEST (default: the directory this
# script lives in), and records where they came from in DEST/provenance.json.
#
# Every *.json file found under the tarball's package/schema/ folder is copied
# with its relative layout kept:
#   >= 2.0: v1/schema.json v1/schema.unstable.json v2/schema.json v2/schema.unstable.json
#   <  2.0: schema.json (and, in some releases, extra files such as v2/schema.unstable.json)
#
# Everything is downloaded, extracted and hashed in temporary directories
# first; DEST is only touched at the very end, by renames. JSON files in DEST
# (top level and one directory down) that the new version does not ship are
# removed; non-JSON files (schema.go, this script, ...) are left alone.
#
# Needs: bash, npm, node, tar, sha256sum. Only this script needs node/npm.
set -euo pipefail

PACKAGE='@agentclientprotocol/sdk'

usage() {
	echo "usage: $0 VERSION [DEST]" >&2
	exit 2
}

die() {
	echo "refresh.sh: $*" >&2
	exit 1
}

if [ "$#" -lt 1 ] || [ "$#" -gt 2 ]; then
	usage
fi
VERSION=$1
[ -n "$VERSION" ] || usage

for tool in npm node tar sha256sum; do
	command -v "$tool" >/dev/null 2>&1 || die "required tool not found: $tool"
done

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
DEST=${2:-$SCRIPT_DIR}
CREATED_DEST=
if [ ! -d "$DEST" ]; then
	mkdir -p "$DEST"
	CREATED_DEST=1
fi
DEST=$(cd "$DEST" && pwd)

WORK=
STAGE=
cleanup() {
	[ -z "$WORK" ] || rm -rf -- "$WORK"
	[ -z "$STAGE" ] || rm -rf -- "$STAGE"
	# Do not leave behind an empty DEST that we created ourselves.
	if [ -n "$CREATED_DEST" ]; then
		rmdir -- "$DEST" 2>/dev/null || true
	fi
}
trap cleanup EXIT
WORK=$(mktemp -d)
# STAGE lives inside DEST so the final moves are same-filesystem renames.
STAGE=$(mktemp -d "$DEST/.refresh.XXXXXX")

# 1. Download the tarball.
(cd "$WORK" && npm pack "$PACKAGE@$VERSION" --json --silent >pack.json) ||
	die "npm pack $PACKAGE@$VERSION failed"

TARBALL=$(node -e '
const p = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
const e = Array.isArray(p) ? p[0] : p;
if (!e || !e.filename) { console.error("no filename in npm pack output"); process.exit(1); }
process.stdout.write(e.filename.replace(/^@/, "").replace(/\//g, "-"));
' "$WORK/pack.json")
[ -f "$WORK/$TARBALL" ] || die "tarball $TARBALL not found after npm pack"

# 2. Extract.
mkdir "$WORK/x"
tar xzf "$WORK/$TARBALL" -C "$WORK/x"
PKG="$WORK/x/package"
[ -d "$PKG/schema" ] || die "$PACKAGE@$VERSION has no schema/ folder"

# 3. Collect the schema files (relative paths, sorted, no leading ./).
(cd "$PKG/schema" && find . -type f -name '*.json' | sed 's|^\./||' | LC_ALL=C sort) >"$WORK/files"
[ -s "$WORK/files" ] || die "$PACKAGE@$VERSION ships no schema/*.json files"
if grep -qx 'provenance.json' "$WORK/files"; then
	die "$PACKAGE@$VERSION ships a schema/provenance.json, which would clash with ours"
fi

while IFS= read -r rel; do
	mkdir -p "$STAGE/$(dirname "$rel")"
	cp -- "$PKG/schema/$rel" "$STAGE/$rel"
done <"$WORK/files"

# 4. Hash them and write provenance.json into the stage.
(cd "$STAGE" && xargs -d '\n' sha256sum -- <"$WORK/files") >"$WORK/sums"

node -e '
const fs = require("fs");
const crypto = require("crypto");
const [packJson, pkgJson, sumsFile, tarball, out, expect] = process.argv.slice(1);
let pack = JSON.parse(fs.readFileSync(packJson, "utf8"));
pack = Array.isArray(pack) ? pack[0] : pack;
const pkg = JSON.parse(fs.readFileSync(pkgJson, "utf8"));
if (pkg.name !== expect) {
  console.error("unexpected package name " + pkg.name);
  process.exit(1);
}
// Cross-check the integrity npm reported against the tarball on disk.
const integrity = pack.integrity;
if (!integrity || !integrity.startsWith("sha512-")) {
  console.error("npm pack reported no sha512 integrity");
  process.exit(1);
}
const got = "sha512-" + crypto.createHash("sha512").update(fs.readFileSync(tarball)).digest("base64");
if (got !== integrity) {
  console.error("tarball integrity mismatch: npm says " + integrity + ", file is " + got);
  process.exit(1);
}
const files = {};
for (const line of fs.readFileSync(sumsFile, "utf8").split("\n")) {
  if (!line) continue;
  const m = /^([0-9a-f]{64}) [ *](.+)$/.exec(line);
  if (!m) { console.error("bad sha256sum line: " + line); process.exit(1); }
  files[m[2]] = m[1];
}
const sorted = {};
for (const k of Object.keys(files).sort()) sorted[k] = files[k];
const prov = {
  files: sorted,
  integrity: integrity,
  license: pkg.license === undefined ? "" : pkg.license,
  package: pkg.name,
  version: pkg.version,
};
fs.writeFileSync(out, JSON.stringify(prov, null, 2) + "\n");
' "$WORK/pack.json" "$PKG/package.json" "$WORK/sums" "$WORK/$TARBALL" "$STAGE/provenance.json" "$PACKAGE"

# 5. Move into place. Schema files first, provenance.json last, then drop
#    JSON files the new version no longer ships.
while IFS= read -r rel; do
	mkdir -p "$DEST/$(dirname "$rel")"
	mv -f -- "$STAGE/$rel" "$DEST/$rel"
done <"$WORK/files"
mv -f -- "$STAGE/provenance.json" "$DEST/provenance.json"

STAGE_NAME=$(basename "$STAGE")
(cd "$DEST" && find . -mindepth 1 -maxdepth 2 -path "./$STAGE_NAME" -prune -o -path './.*' -prune -o -type f -name '*.json' -print |
	sed 's|^\./||' | LC_ALL=C sort) >"$WORK/existing"
while IFS= read -r rel; do
	[ "$rel" = provenance.json ] && continue
	grep -qxF -- "$rel" "$WORK/files" && continue
	echo "refresh.sh: removing stale $rel" >&2
	rm -f -- "$DEST/$rel"
	dir=$(dirname "$rel")
	if [ "$dir" != . ]; then
		rmdir -- "$DEST/$dir" 2>/dev/null || true
	fi
done <"$WORK/existing"

echo "refresh.sh: $PACKAGE@$(node -p 'require(process.argv[1]).version' "$PKG/package.json") -> $DEST ($(wc -l <"$WORK/files") schema files)" >&2
