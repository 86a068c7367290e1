#!/usr/bin/env bash
# Install what a fresh machine lacks to build and test hookline. Idempotent
# and quick when everything is present.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
need_apt=()
command -v cc >/dev/null || need_apt+=(gcc)
command -v c++ >/dev/null || need_apt+=(g++)
command -v cmake >/dev/null || need_apt+=(cmake)
command -v make >/dev/null || need_apt+=(make)
command -v valgrind >/dev/null || need_apt+=(valgrind)
command -v pkg-config >/dev/null || need_apt+=(pkg-config)
command -v python3 >/dev/null || need_apt+=(python3)   # node-gyp (ffi-napi compatibility test)
if command -v dpkg >/dev/null; then                     # gcc's sanitizer runtimes (make test-c-sanitize)
  dpkg -s libasan8 >/dev/null 2>&1 || need_apt+=(libasan8)
  dpkg -s libubsan1 >/dev/null 2>&1 || need_apt+=(libubsan1)
fi
if [ ${#need_apt[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
  echo "setup: installing ${need_apt[*]}" >&2
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi
command -v cargo >/dev/null || { echo "setup: Rust (cargo) is required: https://rustup.rs" >&2; exit 1; }
if [ -d "$root/bindings/node" ] && command -v npm >/dev/null; then
  if [ ! -d "$root/bindings/node/node_modules" ] || [ "$root/bindings/node/package.json" -nt "$root/bindings/node/node_modules/.package-lock.json" ]; then
    echo "setup: npm install in bindings/node" >&2
    (cd "$root/bindings/node" && npm install --no-audit --no-fund --loglevel=error)
  fi
fi
if [ -d "$root/bindings/go" ] && command -v go >/dev/null; then
  (cd "$root/bindings/go" && go mod download)
fi
