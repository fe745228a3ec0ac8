#!/usr/bin/env bash
# Builds build/functions/<group>/bootstrap for every group in shared/routes/routes.json (the
# API groups and the website group), the schedule job, the imaging function, the mail functions
# and the WordPress import function: linux/arm64 (override with GOARCH=amd64 for a local run),
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
  # and the image-variant function the media bucket's events call (infra/lib/imaging.ts), and the
  # mail sender and the suppression handler of SES's bounce events (infra/lib/mail.ts), and the
  # WordPress import function the import queue invokes (infra/lib/wpimport.ts).
  mapfile -t groups < <(node -e 'const t = require(process.argv[1]); for (const g of [...Object.keys(t.groups), ...(t.website ? [t.website] : []), "schedule", "imaging", "mail", "mailevents", "wpimport"]) console.log(g)' "$root/shared/routes/routes.json")
fi

pkgs=()
for g in "${groups[@]}"; do
  if [ ! -f "functions/$g/main.go" ]; then
    echo "build-functions: functions/$g/main.go is missing (group $g is in shared/routes/routes.json)" >&2
    exit 1
  fi
  pkgs+=("./functions/$g")
done

# One go build for all of them: it compiles each shared package once and links the bootstraps side
# by side. (Separate builds run at once each compiled the whole graph for arm64 themselves, since
# concurrent builds do not share work in progress: 14 times the work on a cold cache.)
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
start=$(date +%s%N)
CGO_ENABLED=0 GOOS=linux GOARCH="$arch" go build -tags lambda.norpc -trimpath -ldflags='-s -w' -o "$tmp/" "${pkgs[@]}"
ms=$(( ($(date +%s%N) - start) / 1000000 ))
for g in "${groups[@]}"; do
  mkdir -p "$out/$g"
  mv "$tmp/$g" "$out/$g/bootstrap"
  printf 'build-functions: %-12s linux/%s %9d bytes\n' "$g" "$arch" "$(stat -c %s "$out/$g/bootstrap")"
done
echo "build-functions: ${#groups[@]} bootstraps in $ms ms"
