#!/usr/bin/env bash
# The long soak: 1,000 runs through the UI cycling every op and cell, panics included (the test
# command runs 100). Needs a built dist/ (scripts/test.sh or scripts/bench.sh build one).
# Figures land in e2e/artifacts/soak.json.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"
ensure_packages chromium
ensure_node_tools
[ -f dist/index.html ] || { echo "build dist/ first: bash scripts/test.sh or bash scripts/bench.sh" >&2; exit 1; }
cd e2e
SOAK_RUNS="${SOAK_RUNS:-1000}" npx playwright test tests/reliability.spec.js -g "soak: every cell"
