# Shared set-up steps for serve.sh and test.sh: each installs a tool only when the right version
# is missing, so a second run installs nothing.

set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

# The CLI must match the wasm-bindgen crate; Trunk.toml names that version for trunk too.
WASM_BINDGEN_VERSION="$(sed -n 's/^wasm_bindgen = "\(.*\)"$/\1/p' "$ROOT/Trunk.toml")"
TRUNK_VERSION=0.22.1
# Cargo's home as rustup and cargo define it: tools land in its bin/, which need not be on PATH yet.
CARGO_HOME="${CARGO_HOME:-$HOME/.cargo}"
export PATH="$CARGO_HOME/bin:$PATH"
# Where `cargo install` compiles the tools: beside cargo's home, never in the project's target dir.
TOOLS_TARGET_DIR="${TOOLS_TARGET_DIR:-$CARGO_HOME/install-target}"

step() { printf '\n==> %s\n' "$*"; }

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

# Debian packages, installed together and only if any is missing.
ensure_packages() {
  local missing=()
  for package in "$@"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
  done
  if [ "${#missing[@]}" -gt 0 ]; then
    step "installing ${missing[*]}"
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
  fi
}

ensure_wasm_target() {
  rustup target list --installed | grep -qx wasm32-unknown-unknown || {
    step "adding the wasm32-unknown-unknown target"
    rustup target add wasm32-unknown-unknown
  }
}

# rustfmt and clippy for the checks (rustup's minimal profile leaves them out).
ensure_rust_components() {
  cargo fmt --version >/dev/null 2>&1 || {
    step "adding rustfmt"
    rustup component add rustfmt
  }
  cargo clippy --version >/dev/null 2>&1 || {
    step "adding clippy"
    rustup component add clippy
  }
}

ensure_wasm_bindgen() {
  if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $WASM_BINDGEN_VERSION" ]; then
    step "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (several minutes, once)"
    # `--locked` fails on this crate's lockfile with current registries; the version pin is exact.
    CARGO_TARGET_DIR="$TOOLS_TARGET_DIR" \
      cargo install wasm-bindgen-cli --version "=$WASM_BINDGEN_VERSION" --force
  fi
}

ensure_trunk() {
  if [ "$(trunk --version 2>/dev/null)" != "trunk $TRUNK_VERSION" ]; then
    step "installing trunk $TRUNK_VERSION (10-25 minutes, once)"
    # trunk's release profile uses fat LTO; plain release is several times faster to build.
    CARGO_TARGET_DIR="$TOOLS_TARGET_DIR" CARGO_PROFILE_RELEASE_LTO=false \
      cargo install trunk --version "=$TRUNK_VERSION" --locked --ignore-rust-version --force
  fi
}

# Every crate in Cargo.lock, for every target and feature (the page's Leptos as well as the
# engine's burn): trunk builds with `--offline` (Trunk.toml), so nothing may be left to download.
# Seconds when the registry cache is warm; run before anything compiles.
ensure_crates() {
  step "fetching crates (cargo fetch)"
  cargo fetch --manifest-path "$ROOT/Cargo.toml"
}

# Everything a build needs that comes over the network, first: a missing package, a registry that
# cannot be reached or a tool that will not install fails here, before any long compile.
# Arguments: Debian packages beyond the build's own; `--node` adds the Node tooling in e2e/.
ensure_setup() {
  local node=0 packages=(curl)
  for arg in "$@"; do
    if [ "$arg" = --node ]; then node=1; else packages+=("$arg"); fi
  done
  ensure_packages "${packages[@]}"
  [ "$node" = 0 ] || ensure_node_tools
  ensure_wasm_target
  ensure_crates
  ensure_wasm_bindgen
  ensure_trunk
}

# Node tooling in e2e/: Playwright for the browser tests and benchmarks, binaryen's wasm-opt.
ensure_node_tools() {
  # npm records what it installed in node_modules/.package-lock.json: reinstall when the lockfile
  # asks for something else.
  if ! cmp -s <(sed -n '/"node_modules\//,$p' "$ROOT/e2e/package-lock.json") \
    <(sed -n '/"node_modules\//,$p' "$ROOT/e2e/node_modules/.package-lock.json" 2>/dev/null); then
    step "installing the Node tooling (Playwright, binaryen)"
    (cd "$ROOT/e2e" && npm ci --no-audit --no-fund)
  fi
}

# Finishes a release dist/ for shipping: the Content-Security-Policy, the engines without the IR
# text parsers and the quantization they never call (scripts/snip-wasm.py), every wasm file
# shrunk with wasm-opt -Oz (npm binaryen; Debian's binaryen 108 produces a wasm that breaks in
# browsers), index.html's integrity attributes made those of the files as shipped, precompressed
# .br/.gz copies of every file (zopfli writes the .gz), and the build's manifest (the service
# worker that keeps the build for offline visits, the engine's sizes for its download bar). Kept
# out of `trunk serve`: wasm-opt takes minutes.
optimize_dist() {
  ensure_node_tools
  node "$ROOT/scripts/add-csp.mjs" "$ROOT/dist/index.html"
  local wasm
  for wasm in "$ROOT"/dist/engine-worker*_bg.wasm; do
    # cubecl's IR is pliron's, whose text form can be parsed back: every op and type registers
    # its parser at start, so the linker keeps them all (with the combine parsers under them),
    # and nothing in the engine ever parses IR text. Their bodies become `unreachable`, and
    # wasm-opt drops what only they called (BENCHMARKS.md has the profile and the figures).
    # Only functions named as the parsers themselves: glue named after a parser's type (a
    # `drop_in_place`) is shared with identical glue the engine does run.
    step "snipping the IR text parsers and quantization from $(basename "$wasm")"
    # Quantized tensors the same way: the views' code for every quantized value and scale type
    # is reached only through a quantized tensor's view, cubek's kernels only through burn's
    # quantize ops, and the playground never quantizes.
    python3 "$ROOT/scripts/snip-wasm.py" "$wasm" \
      '^<[^<>]* as pliron::parsable::Parsable>::parse' '^pliron::parsable::' '^pliron::irfmt::parsers::' \
      '^cubecl_std::quant::view::run_with_quant_type::run_with_q' '^cubek_quant::' '^<cubek_quant::[^<>]* as '
  done
  for wasm in "$ROOT"/dist/*_bg.wasm; do
    step "wasm-opt -Oz $(basename "$wasm")"
    "$ROOT/e2e/node_modules/.bin/wasm-opt" -Oz --strip-debug --strip-producers \
      --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
      --enable-mutable-globals --enable-reference-types --enable-multivalue \
      "$wasm" -o "$wasm"
  done
  step "the integrity of the page's preloads, from the files as shipped"
  node "$ROOT/scripts/refresh-integrity.mjs" "$ROOT/dist/index.html"
  step "precompressing dist/ (brotli, gzip with zopfli)"
  node "$ROOT/scripts/compress-dist.mjs" "$ROOT/dist"
  step "the build's manifest (service worker, engine sizes)"
  node "$ROOT/scripts/write-build-manifest.mjs" "$ROOT/dist"
  node "$ROOT/scripts/compress-dist.mjs" "$ROOT/dist" sw.js engine-loader.js
}
