#!/usr/bin/env bash
# The browser tier (npm run test:browser; jest.config.js) drives Debian's Chromium through
# playwright-core, and so does one test of the tools tier. Install it when missing (as root
# through apt-get, as on this project's machines); otherwise say what to do.
set -euo pipefail
chromium_path="${CHROMIUM_PATH:-/usr/bin/chromium}"
[ -x "$chromium_path" ] && exit 0
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Missing for the browser tests: chromium: installing Debian's package"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  [ -x "$chromium_path" ] && exit 0
fi
echo "Chromium is missing at $chromium_path: install it (apt-get install -y chromium) or set CHROMIUM_PATH" >&2
exit 1
