#!/usr/bin/env bash
# `make python-wheel`: the platform wheel bundling libhookline, into build/python/dist.
#   1. setuptools builds hookline-<v>-py3-none-linux_<arch>.whl around the library built by
#      `make lib` (target/release/libhookline.so);
#   2. auditwheel checks the library (it may need only system libraries a manylinux platform
#      has: libc, libgcc_s) and retags the wheel with the manylinux tag that the glibc symbol
#      versions it references allow (stripping its symbol table, as `make install` does).
# The sdist (`make python-sdist`) builds the library from its own crate sources with cargo instead.
#
# HOOKLINE_WHEEL_LIB=PATH HOOKLINE_WHEEL_PLAT=TAG: a wheel for another platform around a library
# built for it (make dist: win_amd64 around the mingw-w64 hookline.dll); auditwheel is Linux's
# only, so such a wheel keeps its tag as built.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
root="$(cd "$here/../.." && pwd)"
py="$root/build/python/venv/bin/python"
lib="${HOOKLINE_WHEEL_LIB:-$root/target/release/libhookline.so}"
plat="${HOOKLINE_WHEEL_PLAT:-}"
raw="$root/build/python/raw"
dist="$root/build/python/dist"
[ -x "$py" ] || { echo "python-wheel: run 'make python-env' first" >&2; exit 1; }
[ -f "$lib" ] || { echo "python-wheel: $lib is missing: run 'make lib' first" >&2; exit 1; }
rm -rf "$raw" "$here/build" "$here/src/hookline.egg-info"
mkdir -p "$raw" "$dist"
if [ -n "$plat" ]; then rm -f "$dist"/hookline-*-"$plat".whl; else rm -f "$dist"/hookline-*.whl; fi
HOOKLINE_WHEEL_LIB="$lib" HOOKLINE_WHEEL_PLAT="$plat" "$py" -m build --wheel --no-isolation --outdir "$raw" "$here" >"$raw/build.log" 2>&1 ||
  { cat "$raw/build.log" >&2; echo "python-wheel: the wheel build failed" >&2; exit 1; }
rm -rf "$here/build" "$here/src/hookline.egg-info"
wheel="$(ls "$raw"/hookline-*.whl)"
case "$plat:$(uname -s)" in
  :Linux)
    PATH="$root/build/python/venv/bin:$PATH" "$root/build/python/venv/bin/auditwheel" repair --strip \
      --wheel-dir "$dist" "$wheel" >"$raw/auditwheel.log" 2>&1 ||
      { cat "$raw/auditwheel.log" >&2; echo "python-wheel: auditwheel repair failed" >&2; exit 1; }
    ;;
  *) cp "$wheel" "$dist/" ;;
esac
for w in "$dist"/hookline-*"${plat:+-$plat}".whl; do echo "python-wheel: $(basename "$w") ($(du -k "$w" | cut -f1) KiB)"; done
