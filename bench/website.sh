#!/usr/bin/env bash
# The public website's weight, Lighthouse scores and axe findings in each theme (bench/website.mjs),
# against a dev server started here on spare ports and stopped whatever happens. Prints figures.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/lib.sh
ensure_tools
ensure_npm bench
ensure_npm site
start_dev_server "${BENCH_WEBSITE_PORT:-8282}" "${BENCH_WEBSITE_MOTO_PORT:-4682}"
BASE_URL="$DEV_SERVER_URL" node bench/website.mjs
