#!/usr/bin/env bash
# The browser tests drive Debian's Chromium through playwright-core. Install it when missing
# (as root through apt-get, as on this project's machines); otherwise say what to do.
set -euo pipefail
chromium_path="${CHROMIUM_PATH:-/usr/bin/chromium}"
[ -x "$chromium_path" ] && exit 0
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Chromium is missing: installing Debian's chromium package for the browser tests"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  [ -x "$chromium_path" ] && exit 0
fi
echo "Chromium is missing at $chromium_path: install it (apt-get install -y chromium) or set CHROMIUM_PATH" >&2
exit 1
