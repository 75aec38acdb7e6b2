#!/usr/bin/env bash
# CI check of the MCP Bundle: the official MCPB CLI (@anthropic-ai/mcpb, pinned in
# scripts/mcpb/package-lock.json) validates packaging/mcpb/manifest.json, then
# scripts/mcpb/build.sh packs the debug binary the tests already built (target/debug/avenir-mcp;
# built here, in debug, only when missing) into target/mcpb-check/, and the bundle is unpacked
# with the same CLI to check what a host would find: the manifest with the crate's version and
# this platform, and a binary that runs and names that version. host-check.mjs then starts the
# unpacked server with the command and environment the official package's host code derives from
# the manifest and the person's settings, and lists its tools with writes off and on. No release
# build.
#
#   scripts/mcpb/validate.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
source scripts/mcpb/cli.sh

echo "mcpb: validating packaging/mcpb/manifest.json"
mcpb validate packaging/mcpb/manifest.json

binary=target/debug/avenir-mcp
if [[ ! -x $binary ]]; then
    echo "mcpb: no $binary yet, building it (debug)"
    cargo build --quiet -p avenir-mcp
fi
check=$root/target/mcpb-check
rm -rf "$check"
scripts/mcpb/build.sh --binary "$binary" --out "$check"
bundles=("$check"/avenir-mcp-*.mcpb)
[[ ${#bundles[@]} -eq 1 && -s ${bundles[0]} ]] || { echo "mcpb: expected one bundle in $check" >&2; exit 1; }
bundle=${bundles[0]}

mcpb unpack "$bundle" "$check/unpacked" >/dev/null
version=$(node -p 'require(process.argv[1]).version' "$check/unpacked/manifest.json")
entry=$(node -p 'require(process.argv[1]).server.entry_point' "$check/unpacked/manifest.json")
[[ $bundle == *"avenir-mcp-$version-"* ]] || { echo "mcpb: bundle $bundle does not carry the manifest's version $version" >&2; exit 1; }
[[ -x $check/unpacked/$entry ]] || { echo "mcpb: $entry is missing from the bundle or not executable" >&2; exit 1; }
said=$("$check/unpacked/$entry" --version)
[[ $said == *"$version"* ]] || { echo "mcpb: the bundled binary says \"$said\", not version $version" >&2; exit 1; }
node scripts/mcpb/host-check.mjs "$mcpb_work" "$check/unpacked"
echo "mcpb: ok: $(basename "$bundle") validated, packed and unpacked; its $entry answers \"$said\""
