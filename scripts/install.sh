#!/usr/bin/env bash
# Install the C library, header, pkg-config and CMake files (`make install`),
# or write pkg-config files that point into this checkout (`--uninstalled`).
#
#   scripts/install.sh                 install; settings from the environment:
#     PREFIX      (default /usr/local)
#     LIBDIR      (default $PREFIX/lib)
#     INCLUDEDIR  (default $PREFIX/include)
#     DATADIR     (default $PREFIX/share)
#     DESTDIR     staging root prepended to every path written (packaging)
#     CARGO_TARGET_DIR  where cargo put the release build (default target)
#     STRIP       strip program: the installed shared library loses its symbol
#                 table, the archive its debug sections (default strip; set it
#                 empty to install the files as cargo built them)
#   scripts/install.sh --uninstalled DIR
#     write DIR/hookline.pc and DIR/hookline-static.pc for the in-tree build
#     (PKG_CONFIG_PATH=DIR; used by `make test-go`)
#
# The installed .pc and CMake files locate the prefix relative to their own
# directory, so an installed tree (or a DESTDIR staging tree) can be moved.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

target_dir="${CARGO_TARGET_DIR:-$root/target}"
libsrc="$target_dir/release"

crate_version="$(awk '/^\[/ { in_pkg = ($0 == "[package]") } in_pkg && /^version *=/ { print; exit }' Cargo.toml |
  sed -E 's/^version *= *"([^"]+)".*/\1/')"
printf '%s\n' "$crate_version" | grep -Eq '^[0-9]+\.[0-9]+\.[0-9]+$' ||
  { echo "install: cannot read a MAJOR.MINOR.PATCH version from Cargo.toml" >&2; exit 1; }
IFS=. read -r major minor _patch <<<"$crate_version"

# System libraries a program linking the static archive needs (the Rust
# standard library's: -lm for pow, -lpthread, ...). rustc prints them for a
# staticlib; asking it for a one-line staticlib avoids rebuilding hookline.
# (The dependencies add none; `make test-install` links the archive with
# exactly this list, so a dependency that needed more would fail there.)
native_static_libs() {
  local tmp line
  tmp="$(mktemp -d)"
  printf '\n' >"$tmp/probe.rs"
  line="$("${RUSTC:-rustc}" --crate-type staticlib --crate-name hookline_probe --print native-static-libs \
    -o "$tmp/libprobe.a" "$tmp/probe.rs" 2>&1 | sed -n 's/^note: native-static-libs: //p')"
  rm -rf "$tmp"
  [ -n "$line" ] || { echo "install: rustc did not report its native static libraries" >&2; exit 1; }
  printf '%s\n' "$line"
}

# render TEMPLATE OUT NAME=VALUE...: replace @NAME@ with VALUE.
render() {
  local template="$1" out="$2"; shift 2
  local text
  text="$(cat "$template")"
  local kv
  for kv in "$@"; do
    text="${text//@${kv%%=*}@/${kv#*=}}"
  done
  if printf '%s\n' "$text" | grep -q '@[A-Z_]*@'; then
    echo "install: unreplaced placeholder in $template" >&2; exit 1
  fi
  printf '%s\n' "$text" >"$out"
}

# relpath FROM TO: TO relative to directory FROM (both absolute).
relpath() { realpath -m --relative-to="$1" "$2"; }

for f in libhookline.so libhookline.a; do
  [ -f "$libsrc/$f" ] || { echo "install: $libsrc/$f is missing: run 'make lib' first" >&2; exit 1; }
done

natives="$(native_static_libs)"

if [ "${1:-}" = "--uninstalled" ]; then
  out="${2:?usage: install.sh --uninstalled DIR}"
  mkdir -p "$out"
  for pc in hookline hookline-static; do
    render "packaging/$pc.pc.in" "$out/$pc.pc" PREFIX="$root" LIBDIR="$libsrc" INCLUDEDIR="$root/include" \
      VERSION="$crate_version" NATIVE_LIBS="$natives"
  done
  exit 0
fi

PREFIX="${PREFIX:-/usr/local}"
LIBDIR="${LIBDIR:-$PREFIX/lib}"
INCLUDEDIR="${INCLUDEDIR:-$PREFIX/include}"
DATADIR="${DATADIR:-$PREFIX/share}"
DESTDIR="${DESTDIR:-}"
STRIP="${STRIP-strip}"
for d in "$PREFIX" "$LIBDIR" "$INCLUDEDIR" "$DATADIR"; do
  case "$d" in /*) ;; *) echo "install: '$d' is not an absolute path" >&2; exit 1 ;; esac
done

pcdir="$LIBDIR/pkgconfig"
cmakedir="$LIBDIR/cmake/hookline"
docdir="$DATADIR/doc/hookline"
real="libhookline.so.$crate_version"
soname="libhookline.so.$major"

install -d "$DESTDIR$LIBDIR" "$DESTDIR$INCLUDEDIR" "$DESTDIR$pcdir" "$DESTDIR$cmakedir" "$DESTDIR$docdir"
install -m 0755 "$libsrc/libhookline.so" "$DESTDIR$LIBDIR/$real"
ln -sfn "$real" "$DESTDIR$LIBDIR/$soname"
ln -sfn "$soname" "$DESTDIR$LIBDIR/libhookline.so"
install -m 0644 "$libsrc/libhookline.a" "$DESTDIR$LIBDIR/libhookline.a"
if [ -n "$STRIP" ] && command -v "$STRIP" >/dev/null; then
  # The exported hl_* functions stay in the dynamic symbol table.
  "$STRIP" --strip-unneeded "$DESTDIR$LIBDIR/$real"
  "$STRIP" --strip-debug "$DESTDIR$LIBDIR/libhookline.a"
fi
install -m 0644 include/hookline.h "$DESTDIR$INCLUDEDIR/hookline.h"
# The `hookline` command (built with the default `cli` feature).
BINDIR="${BINDIR:-$PREFIX/bin}"
if [ -x "$libsrc/hookline" ]; then
  install -d "$DESTDIR$BINDIR"
  install -m 0755 "$libsrc/hookline" "$DESTDIR$BINDIR/hookline"
  if [ -n "$STRIP" ] && command -v "$STRIP" >/dev/null; then "$STRIP" "$DESTDIR$BINDIR/hookline"; fi
else
  echo "install: $libsrc/hookline is missing (built by 'cargo build --release'); the command is not installed" >&2
  exit 1
fi
install -m 0644 LICENSE-MIT LICENSE-APACHE README.md "$DESTDIR$docdir/"

for pc in hookline hookline-static; do
  render "packaging/$pc.pc.in" "$DESTDIR$pcdir/$pc.pc" \
    PREFIX="\${pcfiledir}/$(relpath "$pcdir" "$PREFIX")" \
    LIBDIR="\${prefix}/$(relpath "$PREFIX" "$LIBDIR")" \
    INCLUDEDIR="\${prefix}/$(relpath "$PREFIX" "$INCLUDEDIR")" \
    VERSION="$crate_version" NATIVE_LIBS="$natives"
done

cmake_libs="$(printf '%s\n' "$natives" | tr ' ' '\n' | sed -n 's/^-l//p' | paste -sd';' -)"
sizeof_void_p="$(getconf LONG_BIT)"
render packaging/hooklineConfig.cmake.in "$DESTDIR$cmakedir/hooklineConfig.cmake" \
  CMAKE_TO_PREFIX="$(relpath "$cmakedir" "$PREFIX")" \
  LIBDIR_REL="$(relpath "$PREFIX" "$LIBDIR")" INCLUDEDIR_REL="$(relpath "$PREFIX" "$INCLUDEDIR")" \
  VERSION="$crate_version" MAJOR="$major" CMAKE_NATIVE_LIBS="$cmake_libs"
render packaging/hooklineConfigVersion.cmake.in "$DESTDIR$cmakedir/hooklineConfigVersion.cmake" \
  VERSION="$crate_version" MAJOR="$major" MINOR="$minor" SIZEOF_VOID_P="$((sizeof_void_p / 8))"

echo "install: hookline $crate_version installed under $DESTDIR$PREFIX"
