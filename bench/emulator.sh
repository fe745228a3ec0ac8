#!/usr/bin/env bash
# The local emulator's own cost as the table grows (issue 32): a 10-item transaction, a query of a
# partition and a query of an index key (25 items each), on tables of 100 and 5,000 items, over
# HTTP, with moto's patches (shared/localaws/moto_patches.py) and, unless PATCHED_ONLY=1, without
# them (moto as released). Prints ms per call and the growth from 100 to 5,000 items.
# Goal: a 10-item transaction grows at most 1.5x and stays under 20 ms at 5,000 items.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
run() {
  go test -run '^$' -bench Emulator -benchtime "$1" ./shared/localaws/ |
    awk -v label="$2" '/^BenchmarkEmulator\// {
      split($1, part, "/"); sub(/-[0-9]+$/, "", part[3]); split(part[3], n, "=")
      ms[part[2], n[2]] = $3 / 1e6; ops[part[2]] = 1
    }
    END {
      for (op in ops) printf "%-9s %-16s %9.1f ms %9.1f ms %7.2fx\n", label, op, ms[op, 100], ms[op, 5000], ms[op, 5000] / ms[op, 100]
    }' | sort -k2
}
printf "%-9s %-16s %12s %12s %8s\n" "moto" "call" "100 items" "5,000 items" "growth"
run 30x patched
if [ "${PATCHED_ONLY:-0}" != 1 ]; then
  MOTO_UNPATCHED=1 run 3x released
fi
