#!/usr/bin/env bash
# Binary size and init time of every group's Lambda bootstrap.
# Init time = process start → its first GET /runtime/invocation/next against the fake Runtime API
# (functions/lambdatest), median of 10 starts, on this machine's architecture (same flags as the
# deployed arm64 build). Sizes: the linux/arm64 build that is deployed, and the host build.
# Needs moto_server (started by the test binary) like the Lambda-path tests.
#   bench/lambda-init.sh            # 10 starts per group
#   RUNS=20 bench/lambda-init.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
go test -run '^$' -bench 'ColdStart' -benchtime "${RUNS:-10}x" -count 1 ./functions/lambdatest/ 2>&1 \
  | grep -E '^(Benchmark|goos|goarch|cpu|ok|FAIL|---)' \
  | sed -E 's/BenchmarkColdStart\///'
