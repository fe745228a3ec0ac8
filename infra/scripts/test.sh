#!/usr/bin/env bash
# CI entry point for the cloud stack (run from anywhere; `npm test --prefix infra` calls it):
#   1. build every group's linux/arm64 bootstrap (build/functions/<group>/bootstrap)
#   2. side by side: the typecheck; `cdk synth` offline (no credentials, no Docker) with cdk-nag
#      AwsSolutions → cdk.out/, then cfn-lint on it (errors fail; warnings are printed); the
#      Template assertion tests and the cdk-nag tests (node --test)
# The Lambda-path checks (real events through the adapter, bootstraps against a fake Runtime
# API) are Go tests in functions/lambdatest and run with `go test ./...`.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"

if [ ! -d infra/node_modules/aws-cdk-lib ]; then
  npm ci --prefix infra --no-audit --no-fund
fi

echo "== build functions"
infra/scripts/build-functions.sh

# The checks after the build are independent and each keeps one core busy, so they run side by
# side (57 → about 35 s on 2 cores): the typecheck, the synth and cfn-lint on its output, and the
# tests (which synthesize their own stacks). Each one's output is printed whole, in this order.
logs="$(mktemp -d)"
typecheck() { (cd infra && npx tsc -p .); }
synth_and_lint() {
  local spa_args=()
  if [ ! -f site/dist/index.html ]; then
    # The SPA is built by `npm run build --prefix site`; CI for infra must not depend on it.
    local placeholder
    placeholder="$(mktemp -d)"
    printf '<!doctype html><title>placeholder</title>\n' >"$placeholder/index.html"
    spa_args=(-c "spaDir=$placeholder")
    echo "site/dist is missing: synthesizing with a placeholder SPA ($placeholder)"
  fi
  local start
  start=$(date +%s%N)
  # With a mail domain, so that cfn-lint sees the SES identity and the sender's SES grant too.
  CDK_DISABLE_VERSION_CHECK=1 npx --prefix infra cdk synth --quiet --no-notices -c mailDomain=mail.example.org "${spa_args[@]}"
  echo "synth: $(( ($(date +%s%N) - start) / 1000000 )) ms"
  echo "== cfn-lint"
  if ! command -v cfn-lint >/dev/null 2>&1; then
    python3 -m pip install --quiet cfn-lint
  fi
  cfn-lint --non-zero-exit-code error -- cdk.out/*.template.json
}
# Every test file in one process (test/all.ts): aws-cdk-lib loads and the default stack synthesizes once.
assertions() { (cd infra && node --import tsx --test --test-reporter=spec test/all.ts); }
checks=(typecheck synth_and_lint assertions)
titles=("typecheck" "synth (with cdk-nag)" "assertion + cdk-nag tests")
pids=()
for check in "${checks[@]}"; do
  "$check" >"$logs/$check.log" 2>&1 &
  pids+=($!)
done
failed=0
for i in "${!checks[@]}"; do
  status=0
  wait "${pids[$i]}" || status=$?
  echo "== ${titles[$i]}"
  cat "$logs/${checks[$i]}.log"
  if [ $status -ne 0 ]; then
    echo "infra: ${titles[$i]} failed (exit $status)"
    failed=1
  fi
done
rm -rf "$logs"
[ $failed -eq 0 ]
echo "infra: all checks passed"
