#!/usr/bin/env bash
# Regenerates the README's screenshots (docs/images/panel.png, website.png and the phone-*.png of the panel
# on a 390x844 phone) from the
# demo: starts the dev server on spare ports with a known demo password, captures the panel and the
# demo institution's website in Chromium (scripts/screenshots.mjs), and stops the server.
# SCREENSHOTS_PORT / SCREENSHOTS_MOTO_PORT change the ports (8191 / 4591); SCREENSHOT_THEME picks
# another theme for the website (the demo's own otherwise); CHROMIUM_PATH another browser.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
ensure_tools
ensure_npm site
start_dev_server "${SCREENSHOTS_PORT:-8191}" "${SCREENSHOTS_MOTO_PORT:-4591}"
E2E_BASE_URL="$DEV_SERVER_URL" node scripts/screenshots.mjs
