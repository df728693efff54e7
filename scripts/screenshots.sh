#!/usr/bin/env bash
# Screenshots of the built playground (light and dark, desktop and phone) into
# e2e/artifacts/screenshots/; `--docs` also rewrites the README's docs/screenshot.png. Needs a
# built dist/ (scripts/test.sh or scripts/bench.sh build one).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"
ensure_packages chromium
ensure_node_tools
[ -f dist/index.html ] || { echo "build dist/ first: bash scripts/test.sh or bash scripts/bench.sh" >&2; exit 1; }
cd e2e
node screenshots.mjs "$@"
