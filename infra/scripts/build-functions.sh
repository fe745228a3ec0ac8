#!/usr/bin/env bash
# Builds build/functions/<group>/bootstrap for every group in shared/routes/routes.json (the
# API groups and the website group), the schedule job and the imaging function: linux/arm64 (override with GOARCH=amd64 for a local run),
# static, no RPC shim, stripped.
#   infra/scripts/build-functions.sh            # all groups
#   infra/scripts/build-functions.sh auth       # some groups
#   OUT=/tmp/fx GOARCH=amd64 infra/scripts/build-functions.sh
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
out="${OUT:-$root/build/functions}"
arch="${GOARCH:-arm64}"

if [ "$#" -gt 0 ]; then
  groups=("$@")
else
  # The same list as infra/lib/routes.ts functionGroups: groups, then the website (no prefixes).
  # Then the functions that serve no route: the scheduled publishing job (infra/lib/schedule.ts)
  # and the image-variant function the media bucket's events call (infra/lib/imaging.ts).
  mapfile -t groups < <(node -e 'const t = require(process.argv[1]); for (const g of [...Object.keys(t.groups), ...(t.website ? [t.website] : []), "schedule", "imaging"]) console.log(g)' "$root/shared/routes/routes.json")
fi

build_one() {
  local g="$1"
  if [ ! -f "functions/$g/main.go" ]; then
    echo "build-functions: functions/$g/main.go is missing (group $g is in shared/routes/routes.json)" >&2
    return 1
  fi
  mkdir -p "$out/$g"
  local start ms
  start=$(date +%s%N)
  CGO_ENABLED=0 GOOS=linux GOARCH="$arch" go build -tags lambda.norpc -trimpath -ldflags='-s -w' \
    -o "$out/$g/bootstrap" "./functions/$g"
  ms=$(( ($(date +%s%N) - start) / 1000000 ))
  printf 'build-functions: %-12s linux/%s %9d bytes %6d ms\n' "$g" "$arch" "$(stat -c %s "$out/$g/bootstrap")" "$ms"
}

# Builds share the Go cache, so after the first the rest mostly link; run them side by side.
pids=()
for g in "${groups[@]}"; do
  build_one "$g" & pids+=($!)
done
fail=0
for p in "${pids[@]}"; do wait "$p" || fail=1; done
exit "$fail"
