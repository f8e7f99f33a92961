#!/usr/bin/env bash
# The tools tier (npm run test:tools; jest.config.js): the claim form PDFs read with poppler-utils'
# pdftotext, the X12 files checked by third_party/pyx12 (the independent 5010 validator) on
# Debian's Python 3 with python3-defusedxml, the database roles script run by psql, the metrics by
# promtool (scripts/ensure-promtool.sh), docs/api.md's FHIR example run by curl, and a download
# read back in Chromium (scripts/ensure-chromium.sh). Install what is missing (as root through apt-get, as on this
# project's machines); otherwise say what to do.
set -euo pipefail
cd "$(dirname "$0")/.."
has_defusedxml() { /usr/bin/python3 -c 'import defusedxml' >/dev/null 2>&1; }
has() { command -v "$1" >/dev/null 2>&1; }
missing=()
has pdftotext || missing+=(poppler-utils)
has_defusedxml || missing+=(python3-defusedxml)
has psql || missing+=(postgresql-client)
has curl || missing+=(curl)
if [ "${#missing[@]}" -gt 0 ] && [ "$(id -u)" = "0" ] && has apt-get; then
  echo "Missing for the tools tests: ${missing[*]}: installing Debian's packages"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi
status=0
has pdftotext || { echo "pdftotext is missing: install it (apt-get install -y poppler-utils)" >&2; status=1; }
has_defusedxml ||
  { echo "Python 3's defusedxml is missing (pyx12 needs it): install it (apt-get install -y python3-defusedxml)" >&2; status=1; }
has psql || { echo "psql is missing: install it (apt-get install -y postgresql-client)" >&2; status=1; }
has curl || { echo "curl is missing: install it (apt-get install -y curl)" >&2; status=1; }
bash scripts/ensure-promtool.sh || status=1
bash scripts/ensure-chromium.sh || status=1
exit "$status"
