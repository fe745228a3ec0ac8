# Shared by the dev and test scripts: install what a fresh machine lacks (idempotent, quick when done).
# The emulator's patches (shared/localaws/moto_patches.py) are written for this moto exactly.
MOTO_VERSION=5.2.1
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

# start_dev_server PORT MOTO_PORT: builds and starts the dev server (its own emulator keeping
# nothing, the demo tenant, DEMO_ADMIN_PASSWORD or a random one, exported) on spare ports, stops it when the
# calling script exits, and waits until it answers. Sets DEV_SERVER_URL.
start_dev_server() {
  export PORT=$1 MOTO_PORT=$2 DEMO_ADMIN_PASSWORD=${DEMO_ADMIN_PASSWORD:-pass-$RANDOM$RANDOM}
  # Tests start from the demo alone: nothing kept from an earlier run.
  export DEV_DATA=${DEV_DATA:-none}
  unset AWS_ENDPOINT_URL
  [ -f site/dist/index.html ] || npm run build --prefix site --silent
  go build -o build/devserver ./cmd/devserver
  DEV_SERVER_LOG=$(mktemp)
  build/devserver >"$DEV_SERVER_LOG" 2>&1 &
  DEV_SERVER_PID=$!
  trap 'kill $DEV_SERVER_PID 2>/dev/null; wait $DEV_SERVER_PID 2>/dev/null || true; rm -f "$DEV_SERVER_LOG"' EXIT
  DEV_SERVER_URL="http://127.0.0.1:$PORT"
  if ! wait_for "$DEV_SERVER_URL/api/health" 60; then cat "$DEV_SERVER_LOG"; exit 1; fi
}
