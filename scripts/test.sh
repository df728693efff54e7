#!/usr/bin/env bash
# Runs every test, installing whatever is missing first:
#   0. the Rust sources formatted as rustfmt formats them, and clippy clean (natively, and for the
#      page's, the editor's, the engine worker's and the expander's wasm builds); the expander's
#      own tests;
#   1. native tests on real burn: the parser, the form, the claims the page makes, and the whole
#      routing matrix and training on wgpu (Mesa's lavapipe Vulkan driver stands in for a GPU)
#      and on the Flex CPU backend; the exported Cargo projects built and run; then the matrix,
#      training, export and the gallery again with burn's fusion, and rustc's diagnostics for what
#      does not build under it;
#   2. the engine built for wasm32 in release mode;
#   3. `trunk serve` bound to 127.0.0.1 only;
#   4. the playground built with trunk (then wasm-opt and its Content-Security-Policy) and driven
#      in headless Chromium with WebGPU (SwiftShader) and without, and in Firefox as shipped (no
#      WebGPU) and with WebGPU on (Mesa's Vulkan driver): the golden cells, the teaching layer,
#      training, recovery, fallbacks, hostile input, a soak, and a plain static host at a
#      sub-path;
#   5. the numbers the documents quote, counted from those runs.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"

# Set-up first (packages, Node tooling, crates, wasm-bindgen-cli, trunk), so that a network or
# version problem stops the run in its first minutes rather than after the builds.
ensure_setup --node mesa-vulkan-drivers chromium firefox-esr python3 zopfli iproute2
ensure_rust_components

step "formatting (cargo fmt --check)"
cargo fmt --check

step "clippy (native with and without burn's fusion, page and editor wasm, both engine wasms, the expander)"
cargo clippy --all-targets --quiet -- -D warnings
cargo clippy --all-targets --features fusion --quiet -- -D warnings
cargo clippy --bin playground --bin editor-ui --lib --no-default-features --features ui \
  --target wasm32-unknown-unknown --quiet -- -D warnings
cargo clippy --bin engine-worker --lib --no-default-features --features worker \
  --target wasm32-unknown-unknown --quiet -- -D warnings
cargo clippy --bin engine-worker-fusion --lib --no-default-features --features worker,fusion \
  --target wasm32-unknown-unknown --quiet -- -D warnings
cargo clippy --package macro-expander --package burn-macro-v0-22 --package burn-macro-v0-23 \
  --all-targets --quiet -- -D warnings
cargo clippy --package macro-expander --bin expander-worker --lib --no-default-features \
  --features worker --target wasm32-unknown-unknown --quiet -- -D warnings

step "the expander's own tests, and burn's macro modules' own, in both versions compiled as libraries"
cargo test --package macro-expander --package burn-macro-v0-22 --package burn-macro-v0-23

step "native tests (parser, form, claims, matrix and training on wgpu + flex, export)"
# lavapipe warns about XDG_RUNTIME_DIR when it is unset; give it one.
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-$(mktemp -d)}"
cargo test --all-targets

step "native tests with burn's fusion (matrix, training, the rustc diagnostics, export, the gallery)"
cargo test --features fusion --test matrix --test training --test diagnostics --test export --test gallery

step "wasm32 release build of the engine library"
# With the worker's features and profile, so trunk's build of the worker reuses every artifact.
cargo build --profile engine-release --lib --no-default-features --features worker \
  --target wasm32-unknown-unknown

step "trunk serve listens on 127.0.0.1 only"
bash scripts/check-serve-local.sh

step "trunk build --release"
trunk build --release
optimize_dist

step "browser tests in Chromium (Playwright)"
(cd e2e && npx playwright test)

step "browser tests in Firefox (puppeteer-core over WebDriver BiDi: as shipped, and with WebGPU)"
(cd e2e && node --test --test-concurrency=1 --test-reporter=spec --test-reporter-destination=stdout \
  --test-reporter=./firefox/reporter.mjs --test-reporter-destination=stdout firefox/)

step "the documents' numbers, counted from the runs"
node scripts/doc-counts.mjs

step "all tests passed"
