#!/usr/bin/env bash
# Generate the C header with a pinned cbindgen (installed from crates.io when missing).
set -euo pipefail
version="$1"; out="$2"
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
bin="$(command -v cbindgen || true)"
if [ -z "$bin" ] || [ "$("$bin" --version | awk '{print $2}')" != "$version" ]; then
  tooldir="$root/build/tools"
  if [ ! -x "$tooldir/bin/cbindgen" ] || [ "$("$tooldir/bin/cbindgen" --version | awk '{print $2}')" != "$version" ]; then
    echo "installing cbindgen $version" >&2
    cargo install --quiet --locked --root "$tooldir" cbindgen --version "$version" >&2
  fi
  bin="$tooldir/bin/cbindgen"
fi
mkdir -p "$(dirname "$out")"
"$bin" --quiet --config cbindgen.toml --crate hookline --output "$out"
