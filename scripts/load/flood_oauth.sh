#!/usr/bin/env bash
# The unauthenticated floods of the hosted mode (issue 26) against one instance on SQLite:
# 5,000 POST /register (15 KB, then small and valid) and 5,000 GET /authorize with a 7.5 KB
# state from one address. Prints how each was answered (status: count), the database's growth,
# and the rows of the swept tables before and after the expiry sweep.
#
#   scripts/load/flood_oauth.sh          # 5,000 of each
#   FLOOD_N=200 scripts/load/flood_oauth.sh   # a short smoke run
set -euo pipefail
cd "$(dirname "$0")/../.."
exec cargo test -p avenir-hosted --test suite flood_oauth::flood_oauth -- --ignored --nocapture
