#!/usr/bin/env bash
# The alert rules of deploy/prometheus/ (docs/architecture.md, What operators see), read by
# Debian's promtool: `check rules` (syntax, PromQL, templates), then `test rules` (each alert
# fired by one case and held quiet by another).
set -euo pipefail
cd "$(dirname "$0")/../deploy/prometheus"
bash ../../scripts/ensure-promtool.sh
promtool check rules alerts.yml
promtool test rules alerts.test.yml
