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
mkdir -p "$(dirname "$out")" "$root/build"
# The HL_VERSION_* macros come from Cargo.toml's version (the one hl_version()
# returns), so the header cannot disagree with the library it was made from:
# cbindgen.toml's `after_includes` is filled in here.
version_line="$(awk '/^\[/ { in_pkg = ($0 == "[package]") } in_pkg && /^version *=/ { print; exit }' Cargo.toml)"
crate_version="$(printf '%s\n' "$version_line" | sed -E 's/^version *= *"([^"]+)".*/\1/')"
if ! printf '%s\n' "$crate_version" | grep -Eq '^[0-9]+\.[0-9]+\.[0-9]+$'; then
  echo "cbindgen.sh: cannot read a MAJOR.MINOR.PATCH version from Cargo.toml (got '$crate_version')" >&2
  exit 1
fi
IFS=. read -r major minor patch <<<"$crate_version"
config="$root/build/cbindgen.generated.toml"
macros="/** The version of this header: MAJOR.MINOR.PATCH of the hookline release it belongs to.
 * hl_version() returns the version of the library actually loaded, which equals
 * HL_VERSION_STRING when header and library come from the same release. */
#define HL_VERSION_MAJOR $major
#define HL_VERSION_MINOR $minor
#define HL_VERSION_PATCH $patch
#define HL_VERSION_STRING \"$crate_version\""
grep -q '^after_includes = ""$' cbindgen.toml || { echo "cbindgen.sh: cbindgen.toml must contain the line: after_includes = \"\"" >&2; exit 1; }
awk -v macros="$macros" -v q="'''" '$0 == "after_includes = \"\"" { print "after_includes = " q; print ""; print macros; print q; next } { print }' cbindgen.toml >"$config"
# An allow-list: cbindgen reads the C ABI module (src/ffi/ and its submodules)
# and nothing else, so no item of the Rust core can reach the header.
"$bin" --quiet --config "$config" --output "$out" "$root/src/ffi/mod.rs"
