#!/usr/bin/env bash
# Runs every test, installing whatever is missing first:
#   1. native tests on real burn: the parser, the form, and the whole routing matrix on wgpu
#      (Mesa's lavapipe Vulkan driver stands in for a GPU) and on the Flex CPU backend;
#   2. the engine built for wasm32 in release mode;
#   3. the playground built with trunk and driven in headless Chromium with WebGPU (SwiftShader).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"

ensure_packages mesa-vulkan-drivers chromium
ensure_wasm_target

step "native tests (parser, form, matrix on wgpu + flex)"
# lavapipe warns about XDG_RUNTIME_DIR when it is unset; give it one.
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-$(mktemp -d)}"
cargo test --all-targets

step "wasm32 release build of the engine library"
# With the worker's features, so trunk's build of the worker below reuses every artifact.
cargo build --release --lib --features worker --target wasm32-unknown-unknown

ensure_wasm_bindgen
ensure_trunk
step "trunk build --release"
trunk build --release

step "browser tests (Playwright + Chromium + WebGPU)"
(
  cd e2e
  [ -d node_modules/@playwright/test ] || npm ci --no-audit --no-fund
  npx playwright test
)

step "all tests passed"
