#!/usr/bin/env bash
# Binary size and init time of every group's Lambda bootstrap, each as a ratio to two baselines
# built with the same flags: bench/hello, a hello-world aws-lambda-go function (the runtime's
# floor), and bench/hello-dynamodb, the same plus a DynamoDB client (the floor of any function
# that reads the table: the SDK's DynamoDB package alone adds about half of hello's init).
# Init time = process start → its first GET /runtime/invocation/next against the fake Runtime API
# (functions/lambdatest), median and lower quartile (the starts other work slowed least) of RUNS
# starts, interleaved (one start of each bootstrap per round, so load drifting during the run
# weighs on all alike), and the median of each start's ratio to hello-dynamodb's start of the same
# round ("paired": the steadiest of the three on a shared machine), on this machine's architecture
# (same flags as the deployed arm64 build), with only the variables Lambda sets. Sizes: the
# deployed linux/arm64 build.
# Needs moto_server (started by the test binary) like the Lambda-path tests.
#   bench/lambda-init.sh            # 10 starts per group
#   RUNS=20 bench/lambda-init.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
go test -run '^$' -bench 'ColdStart' -benchtime 1x -count 1 -timeout 30m ./functions/lambdatest/ -args -starts "${RUNS:-10}" 2>&1 |
  awk '
    /^BenchmarkColdStart\// {
      split($1, p, "/"); g = p[2]; sub(/-[0-9]+$/, "", g)
      for (i = 2; i <= NF; i++) {
        if ($i == "init-ms-median") init[g] = $(i-1)
        if ($i == "init-ms-p25") low[g] = $(i-1)
        if ($i == "x-hello-db-paired") paired[g] = $(i-1)
        if ($i == "arm64-bytes") arm[g] = $(i-1)
      }
      order[++k] = g
      next
    }
    /^(FAIL|---|panic)/ { print }
    END {
      printf "%-15s %8s %8s %10s %8s %10s %10s %10s %8s  %s\n", "group", "init-ms", "× hello", "× hello-db", "p25-ms", "p25 × h-db", "paired", "arm64 MB", "× hello", "goal <= 1.2x hello-db (median, p25, paired)"
      for (i = 1; i <= k; i++) {
        g = order[i]
        h = init[g] / init["hello"]; d = init[g] / init["hello-dynamodb"]; l = low[g] / low["hello-dynamodb"]
        printf "%-15s %8.2f %7.2fx %9.2fx %8.2f %9.2fx %9.2fx %10.2f %7.2fx  %s %s %s\n", g, init[g], h, d, low[g], l, paired[g], arm[g] / 1048576, arm[g] / arm["hello"], d <= 1.2 ? "met" : "NOT met", l <= 1.2 ? "met" : "NOT met", paired[g] <= 1.2 ? "met" : "NOT met"
      }
    }'
