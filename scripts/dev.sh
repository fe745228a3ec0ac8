#!/usr/bin/env bash
# Starts the whole panel locally: emulator, table, bucket, demo tenant, API and SPA on one origin,
# and the local mailbox every mail goes to (MailDev; its inbox at http://127.0.0.1:8025/).
# PORT (default 8080), MOTO_PORT (default 4566), MAIL_PORT (8025), MAIL_SMTP_PORT (1025) and
# DEMO_ADMIN_PASSWORD are honoured.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
ensure_tools
ensure_npm site
ensure_npm tools/mailbox
npm run build --prefix site --silent
go build -o build/devserver ./cmd/devserver
# exec: Ctrl-C or SIGTERM reaches the server, which stops the emulator and the mailbox it started.
exec build/devserver
