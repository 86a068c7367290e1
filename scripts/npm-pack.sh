#!/usr/bin/env bash
# Make the npm tarballs: the main package `hookline` (bindings/node, staged
# with its optional dependencies on the platform packages by
# bindings/node/scripts/stage-package.js) and one platform package
# `@hookline/<platform>` per PLATFORM=LIBRARY pair.
#
#   scripts/npm-pack.sh OUTDIR                       this machine's platform,
#                                                    with the library `make lib` built
#   scripts/npm-pack.sh OUTDIR PLATFORM=LIBRARY...   the given platforms (make dist)
#
# The libraries are packed as given (make dist hands over stripped ones); for
# this machine's build a stripped copy is packed. Prints the tarballs' paths.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:?usage: npm-pack.sh OUTDIR [PLATFORM=LIBRARY...]}"
shift
mkdir -p "$out"
out="$(cd "$out" && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/hookline-npm-pack.XXXXXX")"
trap 'rm -rf "$work"' EXIT
node_dir="$root/bindings/node"

pairs=("$@")
if [ "${#pairs[@]}" = 0 ]; then
  platform="$(cd "$node_dir" && node -p "require('./lib/platform').platformName()")"
  file="$(cd "$node_dir" && node -p "(require('./lib/platform').PLATFORMS['$platform'] || {}).file || ''")"
  [ -n "$file" ] || { echo "npm-pack: there is no npm platform package for this machine ($platform)" >&2; exit 1; }
  built="$root/target/release/$file"
  [ -f "$built" ] || { echo "npm-pack: $built is missing: run 'make lib' first" >&2; exit 1; }
  cp "$built" "$work/$file"
  if command -v strip >/dev/null; then strip --strip-unneeded "$work/$file"; fi
  pairs=("$platform=$work/$file")
fi

# npm pack prints the tarball's file name last.
pack() { (cd "$1" && npm pack --silent --pack-destination "$out" | tail -n 1); }

for pair in "${pairs[@]}"; do
  platform="${pair%%=*}"
  library="${pair#*=}"
  dir="$work/pkg-$platform"
  node "$node_dir/scripts/platform-package.js" "$platform" "$library" "$dir" >/dev/null
  echo "$out/$(pack "$dir")"
done
node "$node_dir/scripts/stage-package.js" "$work/main" >/dev/null
echo "$out/$(pack "$work/main")"
