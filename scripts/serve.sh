#!/usr/bin/env bash
# Serves the playground on http://127.0.0.1:8080, installing whatever is missing first.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"

ensure_wasm_target
ensure_wasm_bindgen
ensure_trunk
step "fetching crates"
cargo fetch
step "serving on http://127.0.0.1:8080 (first build: 15-20 minutes on 2 cores)"
exec trunk serve "$@"
