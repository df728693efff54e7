#!/usr/bin/env bash
# Serves the playground on http://127.0.0.1:8080, installing whatever is missing first.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"

ensure_setup
# Release builds: burn in a debug wasm build is too slow to use. Later rebuilds after UI edits
# take seconds; the engine is rebuilt only when it changes.
step "serving on http://127.0.0.1:8080 (first build: 20-40 minutes on 2 cores)"
exec trunk serve --release "$@"
