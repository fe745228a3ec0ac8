#!/usr/bin/env bash
# The public website's weight, Lighthouse scores and axe findings in each theme (bench/website.mjs),
# against a dev server started here on spare ports and stopped whatever happens. Prints figures.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/lib.sh
ensure_tools
ensure_npm bench
ensure_npm site
port=${BENCH_WEBSITE_PORT:-8282}
export PORT=$port MOTO_PORT=${BENCH_WEBSITE_MOTO_PORT:-4682} DEMO_ADMIN_PASSWORD=${DEMO_ADMIN_PASSWORD:-bench-pass-$RANDOM$RANDOM}
unset AWS_ENDPOINT_URL
[ -f site/dist/index.html ] || npm run build --prefix site --silent
go build -o build/devserver ./cmd/devserver
log=$(mktemp)
build/devserver >"$log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null || true; rm -f "$log"' EXIT
if ! wait_for "http://127.0.0.1:$port/api/health" 60; then cat "$log"; exit 1; fi
BASE_URL="http://127.0.0.1:$port" node bench/website.mjs
