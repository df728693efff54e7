#!/usr/bin/env bash
# Benchmarks the playground: builds the release dist/, drives headless Chromium (WebGPU through
# SwiftShader here, a real GPU where there is one) and writes bench/results.json and the
# "Latest run" section of BENCHMARKS.md.
#
#   BENCH_RUNS=50   runs per op and cell (default 50)
#   BENCH_COLD=1    also time a cold `trunk build --release` (empty cargo target dir: ~30 min)
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"

ensure_setup --node chromium python3 zopfli

build_times="{}"
if [ "${BENCH_COLD:-0}" = 1 ]; then
  step "cold trunk build --release"
  cold_dir="$(mktemp -d)"
  started=$(date +%s%N)
  CARGO_TARGET_DIR="$cold_dir" trunk build --release
  cold=$(( ($(date +%s%N) - started) / 1000000000 ))
  rm -rf "$cold_dir"
  build_times="{\"cold_trunk_build_s\": $cold"
else
  build_times="{"
fi

step "trunk build --release"
trunk build --release

# The figure a developer waits for after a UI edit: trunk's rebuild, before any wasm-opt.
step "rebuild after a one-line UI change"
touch src/ui/outcome_view.rs
started=$(date +%s%N)
trunk build --release
ui_ms=$(( ($(date +%s%N) - started) / 1000000 ))
[ "$build_times" = "{" ] || build_times="$build_times, "
export BENCH_BUILD_TIMES="$build_times\"ui_rebuild_s\": $((ui_ms / 1000)).$(( (ui_ms % 1000) / 100 ))}"

optimize_dist

step "benchmarks in Chromium"
(cd e2e && node bench/bench.mjs)
step "figures written to bench/results.json and BENCHMARKS.md"
