#!/usr/bin/env bash
# List cost at 100 and 10,000 records, side by side: time per call through the real handlers,
# the ratio 10,000/100, and the DynamoDB calls and items read per call (the guard's session read
# included). Goal (issue 9): ratio ≤ 1.5 for first page, name search and page 2; items read
# ≤ 2 × page size (20) + the guard's read.
#
# Two runs, because the emulators cost a Query differently:
#   - moto (the local stack): its Query loops over every item of the table, then sorts, then
#     applies Limit (moto/dynamodb/models/table.py), so its times grow with the table whatever
#     the layout;
#   - dynalite (bench/package.json): a sorted key-value store per table and index, read as a
#     range that stops at Limit, as DynamoDB reads a partition: its times show the layout's cost.
# The items columns are what DynamoDB bills, the same on both.
#   bench/list.sh              # 20 calls per case
#   RUNS=50 bench/list.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/lib.sh

# run LABEL: the benchmark on the current environment, printed as a table.
run() {
  local out
  out="$(mktemp)"
  go test -run '^$' -bench 'BenchmarkList' -benchtime "${RUNS:-20}x" -count 1 -timeout 30m ./bench/ >"$out" 2>&1 || { cat "$out"; exit 1; }
  awk -v label="$1" '
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
      # The goal applies to the first page, name search and page 2 by cursor (how the SPA pages);
      # a page number without a cursor ("Go to Page") costs what the README says.
      goal["first-page"] = goal["name-search"] = goal["word-search"] = goal["name-order"] = goal["page-2-cursor"] = 1
      printf "\n%s\n%-16s %10s %10s %8s %8s %10s %10s  %s\n", label, "call", "ms@100", "ms@10000", "ratio", "calls", "items@100", "items@10k", "goal (ratio <= 1.5, items <= 43)"
      for (i = 1; i <= k; i++) {
        c = order[i]
        ratio = ms[c, 10000] / ms[c, 100]
        verdict = !(c in goal) ? "-" : (ratio <= 1.5 && items[c, 10000] <= 43 ? "met" : "NOT met")
        printf "%-16s %10.2f %10.2f %7.2fx %8s %10s %10s  %s\n", c, ms[c, 100], ms[c, 10000], ratio, calls[c, 10000], items[c, 100], items[c, 10000], verdict
      }
    }' "$out"
  rm -f "$out"
}

ensure_npm bench
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
bench/node_modules/.bin/dynalite --port "$port" >/dev/null 2>&1 &
dynalite=$!
trap 'kill $dynalite 2>/dev/null || true' EXIT

run "moto (the local stack; its Query reads the whole table)"
AWS_ENDPOINT_URL_DYNAMODB="http://127.0.0.1:$port" run "dynalite (DynamoDB on a sorted store, as DynamoDB reads a partition; S3 on moto)"
