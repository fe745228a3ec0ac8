#!/usr/bin/env bash
# Starts the dev server on spare ports with a known demo password, runs the browser tests against
# it, and stops it (and its emulator) whatever happens.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
# The scheduled-publishing job every few seconds instead of every minute (e2e/schedule.test.mjs).
export SCHEDULE_INTERVAL="${SCHEDULE_INTERVAL:-5s}"
start_dev_server "${E2E_PORT:-8181}" "${E2E_MOTO_PORT:-4599}"
# The ops smoke test, as against a deployed stack: sign in, write, upload, read, clean up.
echo "== cmsctl smoke against the local stack"
go build -o build/cmsctl ./cmd/cmsctl
build/cmsctl smoke --url "$DEV_SERVER_URL" --tenant "${E2E_TENANT:-demo}" --username "${DEMO_ADMIN_USERNAME:-admin}" --password "$DEMO_ADMIN_PASSWORD"
E2E_BASE_URL="$DEV_SERVER_URL" npm run e2e --prefix site
