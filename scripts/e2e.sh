#!/usr/bin/env bash
# Starts the dev server on spare ports with a known demo password, runs the browser tests against
# it, and stops it (and its emulator) whatever happens.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
port=${E2E_PORT:-8181}
export PORT=$port MOTO_PORT=${E2E_MOTO_PORT:-4599} DEMO_ADMIN_PASSWORD=${DEMO_ADMIN_PASSWORD:-e2e-pass-$RANDOM$RANDOM}
unset AWS_ENDPOINT_URL
[ -f site/dist/index.html ] || npm run build --prefix site --silent
go build -o build/devserver ./cmd/devserver
log=$(mktemp)
build/devserver >"$log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null || true; rm -f "$log"' EXIT
if ! wait_for "http://127.0.0.1:$port/api/health" 60; then cat "$log"; exit 1; fi
E2E_BASE_URL="http://127.0.0.1:$port" npm run e2e --prefix site
