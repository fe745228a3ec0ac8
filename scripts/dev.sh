#!/usr/bin/env bash
# Starts the whole panel locally: emulator, table, bucket, demo tenant, API and SPA on one origin.
# PORT (default 8080), MOTO_PORT (default 4566) and DEMO_ADMIN_PASSWORD are honoured.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
ensure_tools
ensure_npm site
npm run build --prefix site --silent
go build -o build/devserver ./cmd/devserver
# exec: Ctrl-C or SIGTERM reaches the server, which stops the emulator it started.
exec build/devserver
