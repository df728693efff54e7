#!/usr/bin/env bash
# Checks that `trunk serve`, as configured in Trunk.toml, listens on 127.0.0.1 only: starts it on
# a spare port, waits for it, and lists its listening sockets.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"

port=18080
dist="$(mktemp -d)"
log="$(mktemp)"
# In a process group of its own, so the cleanup also stops the cargo build trunk started (an
# orphaned build would hold cargo's lock against the next step). `|| true`: under `set -e` the
# killed server's status 143 would otherwise become this script's.
setsid trunk serve --release --port "$port" --dist "$dist" --no-autoreload >"$log" 2>&1 &
server=$!
trap 'kill -- -$server 2>/dev/null || true; wait $server 2>/dev/null || true; rm -rf "$dist" "$log"' EXIT

for _ in $(seq 1 600); do
  sockets="$(ss -H -ltn "sport = :$port" 2>/dev/null | awk '{print $4}')"
  [ -n "$sockets" ] && break
  kill -0 $server 2>/dev/null || { cat "$log"; echo "trunk serve exited early" >&2; exit 1; }
  sleep 1
done
echo "trunk serve listens on: $sockets"
if [ "$sockets" != "127.0.0.1:$port" ]; then
  echo "expected 127.0.0.1:$port only" >&2
  exit 1
fi
