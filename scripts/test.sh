#!/usr/bin/env bash
# Runs every test: Go (against the emulator), SPA unit tests, browser tests against the real local
# stack, and the infrastructure checks.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
ensure_tools
ensure_npm site
ensure_npm infra
ensure_npm tools/mailbox # the mail tests (shared/mail, testkit.Mailbox) and every dev server use it

# phase NAME: prints the phase's header with the time since the tests began (CI's budget is 15 min).
# It also prints how busy the CPUs were since the previous phase (from /proc/stat), so a phase
# that waits more than it computes (room for more parallel work) shows.
cpu_busy() { awk '/^cpu /{print $2+$3+$4+$7+$8, $2+$3+$4+$5+$6+$7+$8}' /proc/stat 2>/dev/null || echo "0 0"; }
read -r busy0 total0 < <(cpu_busy)
phase() {
  local busy total note=""
  read -r busy total < <(cpu_busy)
  if [ "$total" -gt "$total0" ]; then note=", CPUs $(((busy - busy0) * 100 / (total - total0)))% busy since the last"; fi
  busy0=$busy total0=$total
  echo "== $1 (at $((SECONDS / 60))m$((SECONDS % 60))s$note)"
}

# The Lambdas' arm64 bootstraps, which only the infrastructure checks at the end read, build in
# the CPU time the tests leave idle (SCHED_IDLE: a core no test wants; about 110 CPU-seconds on a
# fresh machine), and whatever is left when the tests end builds then.
mkdir -p build
run_idle() { # run_idle COMMAND...: COMMAND on CPU time nothing else wants (nice 19 without chrt)
  if command -v chrt >/dev/null 2>&1; then chrt --idle 0 "$@"; else nice -n 19 "$@"; fi
}
run_idle bash infra/scripts/build-functions.sh >build/functions.log 2>&1 &
functions=$!
trap 'kill $functions 2>/dev/null || true' EXIT

phase "Go: vet and tests (each package starts its own emulator and table)"
go vet ./...
# 20 min: a generous bound for a loaded shared machine; a clean CI run takes about 4.
# The adversarial suite runs beside the rest with -v, so that its totals line (requests sent,
# refused as expected, 5xx = 0) is printed; go test hides a passing package's output otherwise.
# -vet=off: go vet ./... above ran every analyzer; go test's own vet pass would run a subset again.
# -ldflags=-w: no DWARF in the test binaries (a stack trace needs none), about a second less
# linking each of some fifty binaries.
go test -count=1 -vet=off -ldflags=-w -timeout 20m -v ./shared/adversarial >build/adversarial.log 2>&1 &
adversarial=$!
status=0
go test -count=1 -vet=off -ldflags=-w -timeout 20m $(go list ./... | grep -v -E '/shared/adversarial$') || status=1
wait $adversarial || status=1
grep -E '^(adversarial suite:|--- FAIL|FAIL|ok )' build/adversarial.log || true
if [ $status -ne 0 ]; then
  grep -B2 -A20 -E '^--- FAIL' build/adversarial.log | head -80 || true
  exit 1
fi

phase "Website fonts: the committed fallbacks are the @fontsource packages' files"
node scripts/website/fonts.mjs --check

phase "SPA: unit tests and build, side by side (each alone kept one core busy)"
npm run build --prefix site --silent &
build=$!
npm test --prefix site
wait $build

phase "Browser tests against the local stack"
bash scripts/e2e.sh

phase "Infrastructure: synth, assertions, cdk-nag, cfn-lint"
if ! wait $functions; then
  cat build/functions.log
  exit 1
fi
npm test --prefix infra
phase "Done"
