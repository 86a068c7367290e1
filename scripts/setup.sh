#!/usr/bin/env bash
# Install what a fresh machine lacks to build and test hookline, or stop at
# once with one line naming what is missing and the version found.
# Idempotent and quick when everything is present. Needs no user or machine
# settings (npm's, for example): what a tool needs is passed to it here.
#
#   scripts/setup.sh          everything `make test` needs: cargo >= 1.85, a C
#                             and C++ compiler, cmake, make, pkg-config,
#                             python3 (node-gyp), jq (hook scripts in tests), gcc's sanitizer runtimes,
#                             go >= 1.22, node >= 20 with npm, python3 >= 3.9
#                             with venv; then the Node, Go and Python
#                             dependencies of the bindings
#   scripts/setup.sh --demo   only what `make demo` needs: cargo and a C compiler
#
# Missing system packages are installed with apt-get (as root, or with sudo).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
mode=full
[ "${1:-}" = "--demo" ] && mode=demo

MIN_CARGO=1.85
MIN_GO=1.22
MIN_NODE=20

die() { echo "setup: $*" >&2; exit 1; }
# version_ge A B: A >= B (dotted numbers).
version_ge() { [ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n1)" = "$2" ]; }

apt_install() {
  [ $# -gt 0 ] || return 0
  command -v apt-get >/dev/null || die "missing $*, and there is no apt-get here to install them: install them and run again"
  local sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  echo "setup: installing $*" >&2
  $sudo apt-get update -qq >/dev/null || die "apt-get update failed (needed to install $*)"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@" >/dev/null || die "apt-get install $* failed"
}

# --- Rust: cargo >= 1.85 (Debian's packaged Rust is older: no apt fallback).
if ! command -v cargo >/dev/null; then
  die "cargo >= $MIN_CARGO is required; found none (install Rust with rustup, then run again)"
fi
cargo_v="$(cargo --version | awk '{print $2}')"
version_ge "${cargo_v%%-*}" "$MIN_CARGO" || die "cargo >= $MIN_CARGO is required; found $cargo_v (run 'rustup update')"
# make test's lint gate needs clippy and rustfmt (part of rustup's default profile; added
# when a minimal profile left them out).
if [ "$mode" = full ]; then
  for component in clippy rustfmt; do
    probe=$([ "$component" = clippy ] && echo "cargo clippy --version" || echo "cargo fmt --version")
    if ! $probe >/dev/null 2>&1; then
      command -v rustup >/dev/null || die "cargo $component is required by make test's lint gate; install it and run again"
      echo "setup: installing the Rust component $component" >&2
      rustup component add "$component" >/dev/null || die "rustup component add $component failed"
    fi
  done
fi

# --- System packages.
need_apt=()
command -v cc >/dev/null || need_apt+=(gcc)
command -v make >/dev/null || need_apt+=(make)
if [ "$mode" = full ]; then
  command -v c++ >/dev/null || need_apt+=(g++)
  command -v cmake >/dev/null || need_apt+=(cmake)
  command -v pkg-config >/dev/null || need_apt+=(pkg-config)
  command -v python3 >/dev/null || need_apt+=(python3)   # node-gyp, and the Python binding
  if command -v python3 >/dev/null && ! python3 -c 'import venv, ensurepip' 2>/dev/null; then
    need_apt+=(python3-venv)                              # the Python binding's tool environment
  fi
  command -v jq >/dev/null || need_apt+=(jq)              # hook scripts written as Copilot CLI users write them
  if command -v dpkg >/dev/null; then                     # gcc's sanitizer runtimes (make test-c-sanitize)
    dpkg -s libasan8 >/dev/null 2>&1 || need_apt+=(libasan8)
    dpkg -s libubsan1 >/dev/null 2>&1 || need_apt+=(libubsan1)
  fi
  command -v go >/dev/null || need_apt+=(golang-go)
  command -v node >/dev/null || need_apt+=(nodejs)
  command -v npm >/dev/null || need_apt+=(npm)
fi
apt_install "${need_apt[@]}"

command -v cc >/dev/null || die "a C compiler (cc) is required; found none"
[ "$mode" = demo ] && exit 0

command -v c++ >/dev/null || die "a C++ compiler (c++) is required; found none"
command -v cmake >/dev/null || die "cmake is required; found none"
command -v jq >/dev/null || die "jq is required (the Copilot CLI hook tests' scripts use it); found none"
go_v="$(go env GOVERSION 2>/dev/null || true)"
go_v="${go_v#go}"
version_ge "${go_v:-0}" "$MIN_GO" || die "go >= $MIN_GO is required; found ${go_v:-none}"
node_v="$(node --version 2>/dev/null || true)"
node_v="${node_v#v}"
version_ge "${node_v:-0}" "$MIN_NODE" || die "node >= $MIN_NODE is required; found ${node_v:-none}"
command -v npm >/dev/null || die "npm is required (with node $node_v); found none"

# --- Node dependencies of bindings/node, exactly as locked. node-gyp builds
# the ffi-napi compatibility addon against the installed Node's own headers
# (never a download): point it at them here rather than relying on an npm
# setting of the user or the machine.
node_prefix="$(cd "$(dirname "$(readlink -f "$(command -v node)")")/.." && pwd)"
[ -f "$node_prefix/include/node/node.h" ] ||
  die "Node's C headers are required for node-gyp; found none under $node_prefix/include/node (install the nodejs headers package, e.g. libnode-dev)"
export npm_config_nodedir="$node_prefix"
node_dir="$root/bindings/node"
if [ ! -d "$node_dir/node_modules" ] || [ "$node_dir/package-lock.json" -nt "$node_dir/node_modules/.package-lock.json" ]; then
  echo "setup: npm ci in bindings/node" >&2
  (cd "$node_dir" && npm ci --no-audit --no-fund --loglevel=error) || die "npm ci in bindings/node failed"
fi

# --- Go modules of bindings/go and of its OpenTelemetry adapter (its own module).
(cd "$root/bindings/go" && go mod download) || die "go mod download in bindings/go failed"
(cd "$root/bindings/go/otelhookline" && go mod download) || die "go mod download in bindings/go/otelhookline failed"

# --- Python tools of bindings/python (pytest, mypy, build, auditwheel), pinned, in build/python/venv.
"$root/bindings/python/scripts/dev-env.sh" || die "setting up build/python/venv failed"
