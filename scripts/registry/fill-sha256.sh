#!/usr/bin/env bash
# Writes into server.json each MCPB package's fileSha256: the SHA-256 of the bundle its
# `identifier` URL names, found by file name in DIR. The release workflow runs it on the bundles it
# built, after the release's assets are uploaded and before `mcp-publisher publish`; the file in
# the repository carries no hash, since the bundles do not exist before a release.
#
#   scripts/registry/fill-sha256.sh DIR [server.json]
#
# Fails, naming it, when a bundle is missing, and when an identifier does not end in
# avenir-mcp-<version>-… with server.json's own version.
set -euo pipefail
dir=${1:?usage: fill-sha256.sh DIR [server.json]}
file=${2:-$(cd "$(dirname "$0")/../.." && pwd)/server.json}
node - "$dir" "$file" <<'JS'
const fs = require("fs");
const path = require("path");
const crypto = require("crypto");
const [dir, file] = process.argv.slice(2);
const server = JSON.parse(fs.readFileSync(file, "utf8"));
const packages = (server.packages || []).filter((p) => p.registryType === "mcpb");
if (packages.length === 0) {
  console.error(`${file} has no mcpb package`);
  process.exit(1);
}
for (const p of packages) {
  const name = decodeURIComponent(new URL(p.identifier).pathname.split("/").pop());
  if (!name.startsWith(`avenir-mcp-${server.version}-`)) {
    console.error(`${p.identifier} is not a bundle of version ${server.version}`);
    process.exit(1);
  }
  const bundle = path.join(dir, name);
  if (!fs.existsSync(bundle)) {
    console.error(`no ${name} in ${dir}: cannot hash ${p.identifier}`);
    process.exit(1);
  }
  p.fileSha256 = crypto.createHash("sha256").update(fs.readFileSync(bundle)).digest("hex");
  console.log(`${p.fileSha256}  ${name}`);
}
fs.writeFileSync(file, JSON.stringify(server, null, 2) + "\n");
JS
