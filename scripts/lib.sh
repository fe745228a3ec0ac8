# Shared by the dev and test scripts: install what a fresh machine lacks (idempotent, quick when done).
# The emulator's patches (shared/localaws/moto_patches.py) are written for this moto exactly.
MOTO_VERSION=5.2.1

# Go builds everything here as the Lambdas are built (infra/scripts/build-functions.sh: no cgo,
# -trimpath), so go vet, the tests, the dev server and the bootstraps share one set of compiled
# packages in Go's build cache: on a fresh machine the package graph compiles once for this
# machine instead of twice (CI's amd64 bootstraps after go vet: 51 → 7 s on 27 Nov 2026).
export CGO_ENABLED=0
case " ${GOFLAGS:-} " in
*" -trimpath "*) ;;
*) export GOFLAGS="${GOFLAGS:+$GOFLAGS }-trimpath" ;;
esac
ensure_tools() {
  if ! python3 -c "import moto.server, werkzeug, sys; sys.exit(moto.__version__ != '$MOTO_VERSION')" >/dev/null 2>&1; then
    echo "Installing the local AWS emulator (moto[server]==$MOTO_VERSION)..."
    python3 -m pip install --quiet "moto[server]==$MOTO_VERSION"
  fi
}

# npm ci in a package folder when its node_modules is missing or older than its lockfile.
ensure_npm() {
  local dir=$1
  if [ ! -f "$dir/node_modules/.package-lock.json" ] || [ "$dir/package-lock.json" -nt "$dir/node_modules/.package-lock.json" ]; then
    echo "Installing npm packages in $dir..."
    npm ci --prefix "$dir" --no-audit --no-fund --loglevel=error
  fi
}

# wait_for URL SECONDS: poll until the URL answers 200.
wait_for() {
  local url=$1 deadline=$((SECONDS + $2))
  until curl -sf -o /dev/null "$url"; do
    if [ $SECONDS -ge $deadline ]; then echo "timed out waiting for $url" >&2; return 1; fi
    sleep 0.3
  done
}

# start_dev_servers N PORT MOTO_PORT [MAIL_PORT MAIL_SMTP_PORT]: builds the dev server and starts N
# of them side by side, each with its own emulator keeping nothing, its own local mailbox and its
# own demo tenant (DEMO_ADMIN_PASSWORD or a random one, exported), the i-th on PORT+i, MOTO_PORT+i,
# MAIL_PORT+i (its inbox; default PORT+200) and MAIL_SMTP_PORT+i (default MOTO_PORT+200); stops
# them when the calling script exits and waits until all answer. Sets DEV_SERVER_URLS (an array)
# and DEV_SERVER_URL (the first), and exports MAILBOX_URLS (the mailboxes' addresses in the same
# order, space-separated) and MAILBOX_URL (the first): browser tests read the mail a server sent
# from its mailbox (GET {mailbox}/email).
start_dev_servers() {
  local n=$1 port=$2 moto=$3 i
  local mail=${4:-$((port + 200))} smtp=${5:-$((moto + 200))}
  local mailboxes=()
  export DEMO_ADMIN_PASSWORD=${DEMO_ADMIN_PASSWORD:-pass-$RANDOM$RANDOM}
  unset AWS_ENDPOINT_URL
  ensure_npm tools/mailbox # every dev server starts its mailbox (screenshots and benchmarks too)
  [ -f site/dist/index.html ] || npm run build --prefix site --silent
  go build -o build/devserver ./cmd/devserver
  DEV_SERVER_PIDS=() DEV_SERVER_LOGS=() DEV_SERVER_URLS=()
  trap 'kill "${DEV_SERVER_PIDS[@]}" 2>/dev/null; wait "${DEV_SERVER_PIDS[@]}" 2>/dev/null || true; rm -f "${DEV_SERVER_LOGS[@]}"' EXIT
  for ((i = 0; i < n; i++)); do
    DEV_SERVER_LOGS+=("$(mktemp)")
    # Tests start from the demo alone: nothing kept from an earlier run.
    PORT=$((port + i)) MOTO_PORT=$((moto + i)) MAIL_PORT=$((mail + i)) MAIL_SMTP_PORT=$((smtp + i)) DEV_DATA=${DEV_DATA:-none} \
      build/devserver >"${DEV_SERVER_LOGS[$i]}" 2>&1 &
    DEV_SERVER_PIDS+=($!)
    DEV_SERVER_URLS+=("http://127.0.0.1:$((port + i))")
    mailboxes+=("http://127.0.0.1:$((mail + i))")
  done
  for ((i = 0; i < n; i++)); do
    if ! wait_for "${DEV_SERVER_URLS[$i]}/api/health" 120; then cat "${DEV_SERVER_LOGS[$i]}"; exit 1; fi
  done
  DEV_SERVER_URL=${DEV_SERVER_URLS[0]}
  export MAILBOX_URLS="${mailboxes[*]}" MAILBOX_URL="${mailboxes[0]}"
}

# stop_with_dev_servers PID: stops PID with the dev servers, when the calling script exits.
stop_with_dev_servers() {
  DEV_SERVER_PIDS+=("$1")
}

# start_dev_server PORT MOTO_PORT [MAIL_PORT MAIL_SMTP_PORT]: one dev server (start_dev_servers 1 ...).
start_dev_server() {
  start_dev_servers 1 "$@"
}
