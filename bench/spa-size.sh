#!/usr/bin/env bash
# The SPA's initial JavaScript, gzipped, against the 150 kB goal: every script index.html loads
# (entry and modulepreloads), from site/dist after `npm run build --prefix site`.
#   bench/spa-size.sh          # builds site/dist first when it is missing
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
[ -f site/dist/index.html ] || npm run build --prefix site >/dev/null
goal=$((150 * 1024))
total=0
for src in $(grep -oE '(src|href)="/?assets/[^"]+\.js"' site/dist/index.html | sed -E 's/^(src|href)="\/?//; s/"$//' | sort -u); do
  n=$(gzip -9 -c "site/dist/$src" | wc -c)
  printf "%-48s %8.1f kB gzipped\n" "$src" "$(echo "$n / 1024" | bc -l)"
  total=$((total + n))
done
printf "%-48s %8.1f kB gzipped (goal 150 kB: %s)\n" "initial JS total" "$(echo "$total / 1024" | bc -l)" \
  "$([ "$total" -le "$goal" ] && echo met || echo MISSED)"
