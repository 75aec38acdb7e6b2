#!/usr/bin/env bash
# Packs an avenir-mcp binary into an MCP Bundle (.mcpb) for Claude Desktop and other MCPB hosts.
#
#   scripts/mcpb/build.sh [--binary PATH] [--os linux|macos|windows] [--arch x86_64|aarch64] [--out DIR]
#
# --binary defaults to target/release/avenir-mcp (build it first: `cargo build --release -p
# avenir-mcp`); --os and --arch default to this machine's and name the platform the binary was
# built for; --out defaults to dist/. Writes DIR/avenir-mcp-<version>-<os>-<arch>.mcpb and prints
# its path and SHA-256.
#
# The bundle is packaging/mcpb/manifest.json with the crate's version (read from Cargo.toml through
# `cargo metadata`), its platform list narrowed to the one the binary runs on (so that a host on
# another system refuses it instead of failing to start it), and the binary as server/avenir-mcp
# (server/avenir-mcp.exe on Windows). The staged manifest is checked with the official CLI's
# `validate` before `pack` (@anthropic-ai/mcpb, pinned in scripts/mcpb/package-lock.json and
# installed with npm ci into target/mcpb-cli/; needs Node and the npm registry).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)

binary=$root/target/release/avenir-mcp
out=$root/dist
case "$(uname -s)" in
    Linux) os=linux ;;
    Darwin) os=macos ;;
    MINGW* | MSYS* | CYGWIN* | Windows_NT) os=windows ;;
    *) os= ;;
esac
case "$(uname -m)" in
    x86_64 | amd64) arch=x86_64 ;;
    aarch64 | arm64) arch=aarch64 ;;
    *) arch= ;;
esac
while [[ $# -gt 0 ]]; do
    case $1 in
        --binary) binary=${2:?--binary needs a path}; shift 2 ;;
        --os) os=${2:?--os needs linux, macos or windows}; shift 2 ;;
        --arch) arch=${2:?--arch needs x86_64 or aarch64}; shift 2 ;;
        --out) out=${2:?--out needs a directory}; shift 2 ;;
        -h | --help) sed -n '2,16p' "$0"; exit 0 ;;
        *) echo "mcpb build: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
done
case $os in
    linux) platform=linux; exe=avenir-mcp ;;
    macos) platform=darwin; exe=avenir-mcp ;;
    windows) platform=win32; exe=avenir-mcp.exe ;;
    *) echo "mcpb build: --os must be linux, macos or windows (this machine: $(uname -s))" >&2; exit 2 ;;
esac
case $arch in
    x86_64 | aarch64) ;;
    *) echo "mcpb build: --arch must be x86_64 or aarch64 (this machine: $(uname -m))" >&2; exit 2 ;;
esac
if [[ ! -f $binary ]]; then
    echo "mcpb build: no binary at $binary; build it first (cargo build --release -p avenir-mcp) or name one with --binary" >&2
    exit 1
fi

version=$(cd "$root" && cargo metadata --no-deps --offline --format-version 1 |
    node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const p=JSON.parse(s).packages.find(p=>p.name==="avenir-mcp");if(!p){console.error("no avenir-mcp package in cargo metadata");process.exit(1)}console.log(p.version)})')

source "$root/scripts/mcpb/cli.sh"

stage=$root/target/mcpb-stage/$os-$arch
rm -rf "$stage"
mkdir -p "$stage/server" "$out"
cp "$binary" "$stage/server/$exe"
chmod 755 "$stage/server/$exe"
# The manifest, with the version, the one platform and (on Windows) the .exe entry point.
node - "$root/packaging/mcpb/manifest.json" "$stage/manifest.json" "$version" "$platform" "$exe" <<'JS'
const fs = require("fs");
const [src, dst, version, platform, exe] = process.argv.slice(2);
const m = JSON.parse(fs.readFileSync(src, "utf8"));
m.version = version;
m.compatibility = { ...(m.compatibility || {}), platforms: [platform] };
m.server.entry_point = `server/${exe}`;
m.server.mcp_config.command = `\${__dirname}/server/${exe}`;
delete m.server.mcp_config.platform_overrides;
fs.writeFileSync(dst, JSON.stringify(m, null, 2) + "\n");
JS

bundle=$out/avenir-mcp-$version-$os-$arch.mcpb
rm -f "$bundle"
mcpb validate "$stage/manifest.json"
mcpb pack "$stage" "$bundle"
[[ -s $bundle ]] || { echo "mcpb build: pack wrote no bundle at $bundle" >&2; exit 1; }
echo "mcpb build: $bundle"
echo "mcpb build: sha256 $(sha256 "$bundle" | cut -d' ' -f1)"
