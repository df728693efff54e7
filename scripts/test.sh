#!/usr/bin/env bash
# Runs every test, installing whatever is missing first:
#   0. the Rust sources formatted as rustfmt formats them;
#   1. native tests on real burn: the parser, the form, and the whole routing matrix on wgpu
#      (Mesa's lavapipe Vulkan driver stands in for a GPU) and on the Flex CPU backend;
#   2. the engine built for wasm32 in release mode;
#   3. `trunk serve` bound to 127.0.0.1 only;
#   4. the playground built with trunk (then wasm-opt and its Content-Security-Policy) and driven
#      in headless Chromium with WebGPU (SwiftShader): the matrix, teaching layer, recovery,
#      fallbacks, hostile input and a 100-run soak.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"

# Set-up first (packages, Node tooling, crates, wasm-bindgen-cli, trunk), so that a network or
# version problem stops the run in its first minutes rather than after the builds.
ensure_setup --node mesa-vulkan-drivers chromium iproute2
ensure_rustfmt

step "formatting (cargo fmt --check)"
cargo fmt --check

step "native tests (parser, form, matrix on wgpu + flex)"
# lavapipe warns about XDG_RUNTIME_DIR when it is unset; give it one.
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-$(mktemp -d)}"
cargo test --all-targets

step "wasm32 release build of the engine library"
# With the worker's features and profile, so trunk's build of the worker reuses every artifact.
cargo build --profile engine-release --lib --no-default-features --features worker \
  --target wasm32-unknown-unknown

step "trunk serve listens on 127.0.0.1 only"
bash scripts/check-serve-local.sh

step "trunk build --release"
trunk build --release
optimize_dist

step "browser tests (Playwright + Chromium + WebGPU)"
(cd e2e && npx playwright test)

step "all tests passed"
