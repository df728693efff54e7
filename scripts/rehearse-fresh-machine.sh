#!/usr/bin/env bash
# Rehearses the README's two commands as a newcomer meets them: a fresh clone of the current
# commit in a temporary folder, an empty cargo home (no registry cache, no installed tools), an
# empty target dir and an empty home folder (no npm cache), with only the rustup toolchains
# shared. It runs the serve command until the page and the engine answer over HTTP, stops it,
# then runs the test command, and prints the wall-clock time of each.
#
# Your own caches are never touched: cargo home, target dirs, ~/.npm and ~/.cache stay as they
# are. What it cannot undo on a machine that already has them: Debian packages (installed
# system-wide, so only a truly fresh machine rehearses their installation) and rustup targets
# and components (added to the shared toolchain).
#
#   KEEP=1   keep the temporary folder (clone, cargo home, logs) for inspection
#   PORT     the serve command's port (default 18181, so a running `trunk serve` is left alone)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PORT="${PORT:-18181}"
commit="$(git -C "$ROOT" rev-parse HEAD)"
[ -z "$(git -C "$ROOT" status --porcelain)" ] ||
  echo "note: uncommitted changes are not rehearsed; the clone holds commit $commit" >&2

work="$(mktemp -d /tmp/fresh-machine.XXXXXX)"
home="$work/home"
mkdir -p "$home/.cargo/bin"
server=""
cleanup() {
  if [ -n "$server" ]; then kill -- -"$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
  if [ "${KEEP:-0}" = 1 ]; then echo "kept: $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

# rustup's proxies (cargo, rustc, rustup, cargo-fmt, ...) are one binary that dispatches on its
# name: link them into the empty cargo home, and leave the real cargo home off PATH, so tools
# installed there (trunk, wasm-bindgen) are invisible to the rehearsal.
real_cargo_bin="$(dirname "$(command -v rustup)")"
rustup_bin="$(readlink -f "$(command -v rustup)")"
for proxy in rustup cargo rustc rustdoc rustfmt cargo-fmt cargo-clippy clippy-driver; do
  ln -s "$rustup_bin" "$home/.cargo/bin/$proxy"
done
clean_path="$(printf '%s' "$PATH" | tr ':' '\n' | grep -vxF "$real_cargo_bin" | paste -sd:)"

fresh_env=(
  env -u CARGO_TARGET_DIR -u CARGO_BUILD_TARGET_DIR
  HOME="$home"
  CARGO_HOME="$home/.cargo"
  RUSTUP_HOME="${RUSTUP_HOME:-$HOME/.rustup}"
  PATH="$home/.cargo/bin:$clean_path"
  XDG_CACHE_HOME="$home/.cache"
  npm_config_cache="$home/.npm"
)

step() { printf '\n=== %s\n' "$*"; }
elapsed() { local s=$(( $(date +%s) - $1 )); printf '%dm%02ds' $((s / 60)) $((s % 60)); }

step "cloning $commit into $work/clone"
git clone --quiet --no-local "$ROOT" "$work/clone"
git -C "$work/clone" checkout --quiet "$commit"
cd "$work/clone"

step "serve: bash scripts/serve.sh --port $PORT (log: $work/serve.log)"
started=$(date +%s)
setsid "${fresh_env[@]}" bash scripts/serve.sh --port "$PORT" >"$work/serve.log" 2>&1 &
server=$!
# The page counts as served once index.html names the engine and the engine's wasm is served.
until curl -sf "http://127.0.0.1:$PORT/index.html" | grep -q engine-bootstrap &&
  curl -sfI "http://127.0.0.1:$PORT/engine-worker_bg.wasm" >/dev/null; do
  if ! kill -0 "$server" 2>/dev/null; then
    tail -n 40 "$work/serve.log"
    echo "the serve command exited before the page answered" >&2
    exit 1
  fi
  sleep 5
done
serve_time="$(elapsed "$started")"
echo "the page answers on http://127.0.0.1:$PORT after $serve_time"
kill -- -"$server" 2>/dev/null || true
wait "$server" 2>/dev/null || true
server=""

step "test: bash scripts/test.sh (log: $work/test.log)"
started=$(date +%s)
if ! "${fresh_env[@]}" bash scripts/test.sh >"$work/test.log" 2>&1; then
  tail -n 60 "$work/test.log"
  echo "the test command failed after $(elapsed "$started")" >&2
  exit 1
fi
test_time="$(elapsed "$started")"
tail -n 3 "$work/test.log"

step "fresh-machine rehearsal of $commit on $(nproc) cores"
echo "serve (until the page answers): $serve_time"
echo "test (to \"all tests passed\"):   $test_time"
