#!/usr/bin/env bash
# Starts E2E_SHARDS dev servers (default 3) on spare ports with a known demo password, runs the
# browser test files on them (each server one file at a time, from one queue), and stops them (and
# their emulators and mailboxes) whatever happens.
# Each server has its own emulator, mailbox and demo tenant, so the shards never see each other's
# data or mail: a test reads the mail its server sent at E2E_MAILBOX_URL (GET /email).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
# The scheduled-publishing job every few seconds instead of every minute (e2e/schedule.test.mjs).
export SCHEDULE_INTERVAL="${SCHEDULE_INTERVAL:-5s}"
shards=${E2E_SHARDS:-3}
ensure_npm tools/mailbox
start_dev_servers "$shards" "${E2E_PORT:-8181}" "${E2E_MOTO_PORT:-4599}" "${E2E_MAIL_PORT:-8381}" "${E2E_MAIL_SMTP_PORT:-4799}"
read -ra mailboxes <<<"$MAILBOX_URLS"
# The Nu HTML checker as a service for every file that checks served HTML (site/e2e/nu-checker.mjs):
# one JVM for the whole run instead of one per file; it reads its schemas while the smoke test runs.
# A JVM for a short run: the quick compiler only, one compiler thread, the serial collector (its CPU
# over 80 pages 23.5 → 9.9 s; the same flags as nu-checker.mjs's run of the jar).
if command -v java >/dev/null 2>&1; then
  java -XX:TieredStopAtLevel=1 -XX:CICompilerCount=1 -XX:+UseSerialGC -Xss8m -cp "$(cd site && node -p "require.resolve('vnu-jar/build/dist/vnu.jar')")" nu.validator.servlet.Main "${E2E_VNU_PORT:-8588}" >build/vnu.log 2>&1 &
  stop_with_dev_servers $!
  export E2E_VNU_URL="http://127.0.0.1:${E2E_VNU_PORT:-8588}/"
fi
# The ops smoke test, as against a deployed stack: sign in, write, upload, read, clean up.
echo "== cmsctl smoke against the local stack"
go build -o build/cmsctl ./cmd/cmsctl
build/cmsctl smoke --url "$DEV_SERVER_URL" --tenant "${E2E_TENANT:-demo}" --username "${DEMO_ADMIN_USERNAME:-admin}" --password "$DEMO_ADMIN_PASSWORD"
# The files go to the servers from one queue, the longest first (measured, in the order below;
# the rest after them by name; the scheduling test first, since it mostly waits for a minute to
# turn): each server takes the next file when it finishes one, so the servers finish together
# whatever each file weighs (node's --test-shard split by index: 15 min against 9.5 on 26 Nov
# 2026). A file is claimed by making its directory, which only one can. Three servers: the CPUs
# were 67% busy with two (the tests wait on debounces, autosaves and the scheduler); 10.4 against
# about 12 minutes of browser tests on 26 Nov 2026, evening.
longest_first=(schedule a11y website-theme-minimal website-theme-campus website-theme-classic
  website-theme-modern collections website-theme-vibrant languages-site trash admin site media
  pages two-factor rough-edges-errors drafts wordpress-import languages rough-edges-toasts
  site-search batch-save search rough-edges-dashboard permissions-admin accessibility)
queue=()
for name in "${longest_first[@]}"; do queue+=("e2e/$name.test.mjs"); done
for f in site/e2e/*.test.mjs; do
  f=${f#site/}
  [[ " ${queue[*]} " == *" $f "* ]] || queue+=("$f")
done
# E2E_FILES="e2e/a.test.mjs e2e/b.test.mjs" runs only those (in the queue's order).
if [ -n "${E2E_FILES:-}" ]; then
  only=()
  for f in "${queue[@]}"; do [[ " $E2E_FILES " == *" $f "* ]] && only+=("$f"); done
  queue=("${only[@]}")
fi
claims=$(mktemp -d)
# run_server I runs queued files against server I until none is left; a failed file's name goes
# to $claims/failed.
run_server() {
  local i=$1 f name started
  for f in "${queue[@]}"; do
    [ -f "site/$f" ] || continue
    name=$(basename "$f" .test.mjs)
    mkdir "$claims/$name" 2>/dev/null || continue
    started=$SECONDS
    echo "# file $f on server $((i + 1))"
    # The file run directly (node:test reports and sets the exit code): no runner process beside it.
    if ! (cd site && E2E_BASE_URL="${DEV_SERVER_URLS[$i]}" E2E_MAILBOX_URL="${mailboxes[$i]}" node "$f"); then
      echo "$f" >>"$claims/failed"
    fi
    echo "# file $f: $((SECONDS - started)) s"
  done
}
pids=()
for ((i = 0; i < shards; i++)); do
  run_server "$i" >"build/e2e-$i.log" 2>&1 &
  pids+=($!)
done
status=0
for ((i = 0; i < shards; i++)); do
  wait "${pids[$i]}" || status=1
  echo "-- browser tests, server $((i + 1)) of $shards (${DEV_SERVER_URLS[$i]})"
  cat "build/e2e-$i.log"
done
grep -h -E '^# file .*: [0-9]+ s$' build/e2e-*.log | sort -t: -k2 -rn | sed 's/^# file /-- /' || true
if [ ! -s "$claims/failed" ]; then
  exit $status
fi
# A file that failed runs once more, alone on the first server: on two busy cores a step can miss
# its 20-second wait. It must pass then; both runs are printed, so a flaky test stays visible.
mapfile -t failed <"$claims/failed"
echo "-- browser tests: running again, alone: ${failed[*]}"
(cd site && E2E_BASE_URL="${DEV_SERVER_URLS[0]}" E2E_MAILBOX_URL="${mailboxes[0]}" node --test --test-concurrency=1 "${failed[@]}")
