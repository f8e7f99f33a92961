#!/usr/bin/env bash
# The browser tests drive Debian's Chromium through playwright-core, and read the claim form PDFs
# they download with poppler-utils' pdftotext; the X12 tests run third_party/pyx12 (the
# independent 5010 validator) on Debian's Python 3 with python3-defusedxml. Install what is missing (as root through apt-get,
# as on this project's machines); otherwise say what to do.
set -euo pipefail
chromium_path="${CHROMIUM_PATH:-/usr/bin/chromium}"
missing=()
[ -x "$chromium_path" ] || missing+=(chromium)
command -v pdftotext >/dev/null 2>&1 || missing+=(poppler-utils)
has_defusedxml() { /usr/bin/python3 -c 'import defusedxml' >/dev/null 2>&1; }
has_defusedxml || missing+=(python3-defusedxml)
[ "${#missing[@]}" -eq 0 ] && exit 0
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Missing for the browser tests: ${missing[*]}: installing Debian's packages"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  [ -x "$chromium_path" ] && command -v pdftotext >/dev/null 2>&1 && has_defusedxml && exit 0
fi
[ -x "$chromium_path" ] ||
  echo "Chromium is missing at $chromium_path: install it (apt-get install -y chromium) or set CHROMIUM_PATH" >&2
command -v pdftotext >/dev/null 2>&1 ||
  echo "pdftotext is missing: install it (apt-get install -y poppler-utils)" >&2
has_defusedxml ||
  echo "Python 3's defusedxml is missing (pyx12 needs it): install it (apt-get install -y python3-defusedxml)" >&2
exit 1
