# Sourced by build.sh and validate.sh: installs the official MCPB CLI (@anthropic-ai/mcpb, pinned
# exactly in package.json and package-lock.json beside this file) with `npm ci` into
# target/mcpb-cli/ once per change of those two files, and defines `mcpb` to run it.
# Expects $root (the repository) to be set.
# sha256sum where it exists (Linux, Git Bash on Windows), shasum -a 256 otherwise (macOS).
sha256() {
    if command -v sha256sum > /dev/null; then sha256sum "$@"; else shasum -a 256 "$@"; fi
}
mcpb_here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
mcpb_work=${AVENIR_MCPB_DIR:-$root/target/mcpb-cli}
mkdir -p "$mcpb_work"
mcpb_stamp=$(cat "$mcpb_here/package.json" "$mcpb_here/package-lock.json" | sha256 | cut -c1-16)
if [[ ! -f $mcpb_work/node_modules/.avenir-stamp || $(cat "$mcpb_work/node_modules/.avenir-stamp") != "$mcpb_stamp" ]]; then
    cp "$mcpb_here/package.json" "$mcpb_here/package-lock.json" "$mcpb_work/"
    echo "mcpb: installing the pinned CLI (npm ci) into $mcpb_work"
    (cd "$mcpb_work" && npm ci --no-audit --no-fund --loglevel=error)
    echo "$mcpb_stamp" > "$mcpb_work/node_modules/.avenir-stamp"
fi
mcpb() {
    node "$mcpb_work/node_modules/@anthropic-ai/mcpb/dist/cli/cli.js" "$@"
}
