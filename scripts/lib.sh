# Shared by the dev and test scripts: install what a fresh machine lacks (idempotent, quick when done).
ensure_tools() {
  if ! python3 -c "import moto.server, werkzeug" >/dev/null 2>&1; then
    echo "Installing the local AWS emulator (moto[server])..."
    python3 -m pip install --quiet "moto[server]"
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
