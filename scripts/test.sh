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
# The adversarial suite runs beside the rest with -v, so that its totals line (requests sent,
# refused as expected, 5xx = 0) is printed; go test hides a passing package's output otherwise.
mkdir -p build
go test -count=1 -timeout 20m -v ./shared/adversarial >build/adversarial.log 2>&1 &
adversarial=$!
# The collections package is the slowest: moto copies the whole table in each transaction, so
# its cost grows with the table. It runs as two shards (every other test by name), each with its
# own emulator and table: half the items per transaction, side by side.
mapfile -t collection_tests < <(go test -list '^Test' ./shared/collections | grep '^Test')
shard() {
  local picked=() i
  for i in "${!collection_tests[@]}"; do
    if (( i % 2 == $1 )); then picked+=("${collection_tests[$i]}"); fi
  done
  local IFS='|'
  echo "^(${picked[*]})\$"
}
shards=()
for n in 0 1; do
  go test -count=1 -timeout 20m -run "$(shard $n)" ./shared/collections >"build/collections-$n.log" 2>&1 &
  shards+=($!)
done
status=0
go test -count=1 -timeout 20m $(go list ./... | grep -v -E '/shared/(adversarial|collections)$') || status=1
for n in 0 1; do
  if wait "${shards[$n]}"; then
    echo "collections shard $n: $(tail -1 "build/collections-$n.log")"
  else
    status=1
    echo "collections shard $n failed:"
    tail -80 "build/collections-$n.log"
  fi
done
wait $adversarial || status=1
grep -E '^(adversarial suite:|--- FAIL|FAIL|ok )' build/adversarial.log || true
if [ $status -ne 0 ]; then
  grep -B2 -A20 -E '^--- FAIL' build/adversarial.log | head -80 || true
  exit 1
fi

echo "== Website fonts: the committed fallbacks are the @fontsource packages' files"
node scripts/website/fonts.mjs --check

echo "== SPA: unit tests and build"
npm test --prefix site
npm run build --prefix site --silent

echo "== Browser tests against the local stack"
bash scripts/e2e.sh

echo "== Infrastructure: synth, assertions, cdk-nag, cfn-lint"
npm test --prefix infra
