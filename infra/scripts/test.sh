#!/usr/bin/env bash
# CI entry point for the cloud stack (run from anywhere; `npm test --prefix infra` calls it):
#   1. build every group's linux/arm64 bootstrap (build/functions/<group>/bootstrap)
#   2. `cdk synth` offline (no credentials, no Docker) with cdk-nag AwsSolutions → cdk.out/
#   3. the Template assertion tests and the cdk-nag tests (node --test)
#   4. cfn-lint on the synthesized template (errors fail; warnings are printed)
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

echo "== typecheck"
(cd infra && npx tsc -p .)

echo "== synth (with cdk-nag)"
spa_args=()
if [ ! -f site/dist/index.html ]; then
  # The SPA is built by `npm run build --prefix site`; CI for infra must not depend on it.
  placeholder="$(mktemp -d)"
  printf '<!doctype html><title>placeholder</title>\n' >"$placeholder/index.html"
  spa_args=(-c "spaDir=$placeholder")
  echo "site/dist is missing: synthesizing with a placeholder SPA ($placeholder)"
fi
start=$(date +%s%N)
# With a mail domain, so that cfn-lint sees the SES identity and the sender's SES grant too.
CDK_DISABLE_VERSION_CHECK=1 npx --prefix infra cdk synth --quiet --no-notices -c mailDomain=mail.example.org "${spa_args[@]}"
echo "synth: $(( ($(date +%s%N) - start) / 1000000 )) ms"

echo "== assertion + cdk-nag tests"
# Every file in one process (test/all.ts): aws-cdk-lib loads and the default stack synthesizes once.
(cd infra && node --import tsx --test --test-reporter=spec test/all.ts)

echo "== cfn-lint"
if ! command -v cfn-lint >/dev/null 2>&1; then
  python3 -m pip install --quiet cfn-lint
fi
cfn-lint --non-zero-exit-code error -- cdk.out/*.template.json
echo "infra: all checks passed"
