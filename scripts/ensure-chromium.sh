#!/usr/bin/env bash
# The browser tests drive Debian's Chromium through playwright-core, and read the claim form PDFs
# they download with poppler-utils' pdftotext. Install what is missing (as root through apt-get,
# as on this project's machines); otherwise say what to do.
set -euo pipefail
chromium_path="${CHROMIUM_PATH:-/usr/bin/chromium}"
missing=()
[ -x "$chromium_path" ] || missing+=(chromium)
command -v pdftotext >/dev/null 2>&1 || missing+=(poppler-utils)
[ "${#missing[@]}" -eq 0 ] && exit 0
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Missing for the browser tests: ${missing[*]}: installing Debian's packages"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  [ -x "$chromium_path" ] && command -v pdftotext >/dev/null 2>&1 && exit 0
fi
[ -x "$chromium_path" ] ||
  echo "Chromium is missing at $chromium_path: install it (apt-get install -y chromium) or set CHROMIUM_PATH" >&2
command -v pdftotext >/dev/null 2>&1 ||
  echo "pdftotext is missing: install it (apt-get install -y poppler-utils)" >&2
exit 1
