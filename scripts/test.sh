#!/usr/bin/env bash
# Runs every test, installing whatever is missing first:
#   1. native tests on real burn: the parser, and the whole routing matrix on wgpu (Mesa's
#      lavapipe Vulkan driver stands in for a GPU) and on the Flex CPU backend;
#   2. the engine built for wasm32 in release mode.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"

ensure_packages mesa-vulkan-drivers
ensure_wasm_target

step "native tests (parser, matrix on wgpu + flex)"
# lavapipe warns about XDG_RUNTIME_DIR when it is unset; give it one.
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-$(mktemp -d)}"
cargo test --all-targets

step "wasm32 release build of the engine"
cargo build --release --lib --target wasm32-unknown-unknown

step "all tests passed"
