#!/usr/bin/env bash
# Runs every test: Go (against the emulator), SPA unit tests, browser tests against the real local
# stack, and the infrastructure checks.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
ensure_tools
ensure_npm site
ensure_npm infra

echo "== Go: vet and tests (each package starts its own emulator and table)"
go vet ./...
# 20 min: on a loaded shared machine the collections package (serialised moto) nears the default 10.
go test -count=1 -timeout 20m ./...

echo "== SPA: unit tests and build"
npm test --prefix site
npm run build --prefix site --silent

echo "== Browser tests against the local stack"
bash scripts/e2e.sh

echo "== Infrastructure: synth, assertions, cdk-nag, cfn-lint"
npm test --prefix infra
