#!/usr/bin/env bash
# The hosted mode under load and abuse (crates/avenir-hosted/examples/load.rs): builds avenir-mcp
# with the hosted mode and the load program, then runs it with the arguments given, e.g.
#   scripts/load/run.sh --people 200 --seconds 60 --writes --instances 2 --postgres
#   scripts/load/run.sh --people 1 --flood 20000
# PROFILE=hosted (the default) measures what people run (docs/hosting.md); PROFILE=dev builds
# fast, for a smoke run.
set -euo pipefail
cd "$(dirname "$0")/../.."
profile="${PROFILE:-hosted}"
cargo build --profile "$profile" --locked -p avenir-mcp --features hosted
cargo build --profile "$profile" --locked -p avenir-hosted --example load
dir="$profile"; [[ $profile == dev ]] && dir=debug
exec "target/$dir/examples/load" --binary "target/$dir/avenir-mcp" "$@"
