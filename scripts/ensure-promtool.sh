#!/usr/bin/env bash
# The metrics tests (test/metrics-cluster.tools.e2e-spec.ts) and the alert rules' tests
# (scripts/check-alert-rules.sh, deploy/prometheus/) read with Prometheus' own promtool, from
# Debian's `prometheus` package (2.42 on bookworm). Install it when missing (as root through
# apt-get, as on this project's machines); otherwise say what to do.
set -euo pipefail
command -v promtool >/dev/null 2>&1 && exit 0
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Missing for the metrics tests: promtool: installing Debian's prometheus package"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends prometheus >/dev/null
  command -v promtool >/dev/null 2>&1 && exit 0
fi
echo "promtool is missing: install it (apt-get install -y prometheus)" >&2
exit 1
