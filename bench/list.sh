#!/usr/bin/env bash
# List cost at 100 and 10,000 records, side by side: time per call (through the real handlers
# and the local emulator, whose ~3 ms a call dominates), the ratio 10,000/100, and the DynamoDB
# calls and items read per call (the guard's session read included). Goal (issue 9): ratio ≤ 1.5
# for first page, name search and page 2; items read ≤ 2 × page size (20) + the guard's read.
# The items columns are DynamoDB's cost. The time columns are moto's: its GSI Query loops over
# the whole table before applying Limit, so locally they grow with the table (see README).
#   bench/list.sh              # 20 calls per case
#   RUNS=50 bench/list.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
out="$(mktemp)"
go test -run '^$' -bench 'BenchmarkList' -benchtime "${RUNS:-20}x" -count 1 -timeout 30m ./bench/ 2>&1 | tee "$out"
awk '
    /^BenchmarkList\// {
      split($1, p, "/"); kind = p[2]; n = p[3]; sub(/^n=/, "", n); sub(/-[0-9]+$/, "", n)
      for (i = 2; i <= NF; i++) {
        if ($i == "ns/op") ms[kind, n] = $(i-1) / 1e6
        if ($i == "dynamo-calls/op") calls[kind, n] = $(i-1)
        if ($i == "items-read/op") items[kind, n] = $(i-1)
      }
      if (!(kind in seen)) { seen[kind] = 1; order[++k] = kind }
    }
    END {
      printf "\n%-16s %10s %10s %8s %8s %10s %10s\n", "call", "ms@100", "ms@10000", "ratio", "calls", "items@100", "items@10k"
      for (i = 1; i <= k; i++) {
        c = order[i]
        printf "%-16s %10.2f %10.2f %7.2fx %8s %10s %10s\n", c, ms[c, 100], ms[c, 10000], ms[c, 10000] / ms[c, 100], calls[c, 10000], items[c, 100], items[c, 10000]
      }
    }' "$out"
rm -f "$out"
