#!/usr/bin/env bash
# Install the C library, header, pkg-config and CMake files, the `hookline`
# command and the docs (`make install`), or write pkg-config files that point into this
# checkout (`--uninstalled`), or record what the static archive needs
# (`--record-native-libs`, run by `make lib`).
#
#   scripts/install.sh                 install what `make` built (never builds:
#                                      cargo need not be on PATH, e.g. as root);
#                                      settings from the environment:
#     PREFIX      (default /usr/local)
#     LIBDIR      (default $PREFIX/lib)
#     INCLUDEDIR  (default $PREFIX/include)
#     BINDIR      (default $PREFIX/bin)
#     DATADIR     (default $PREFIX/share)
#     DESTDIR     staging root prepended to every path written (packaging)
#     CARGO_TARGET_DIR  where cargo put its build (default target)
#     TARGET      a Rust target triple: install cargo's build for that target
#                 (target/TRIPLE/release; `make dist` does this for each
#                 platform) instead of the build for this machine
#     STRIP       strip program: the installed shared library and command lose
#                 their symbol tables, the archive its debug sections (default
#                 strip, or llvm-strip for a TARGET; set it empty to install
#                 the files as cargo built them)
#     LDCONFIG    ldconfig program (default ldconfig): run when root installs
#                 into a directory the runtime linker searches, without DESTDIR
#   scripts/install.sh --uninstalled DIR
#     write DIR/hookline.pc and DIR/hookline-static.pc for the in-tree build
#     (PKG_CONFIG_PATH=DIR; used by `make test-go`)
#   scripts/install.sh --record-native-libs
#     write the system libraries the static archive needs (rustc's list) next
#     to cargo's build, where a later install (without rustc) reads them
#
# The installed .pc and CMake files locate the prefix relative to their own
# directory, so an installed tree (or a DESTDIR staging tree, or a release
# tarball) can be moved.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

die() { echo "install: $*" >&2; exit 1; }

target_dir="${CARGO_TARGET_DIR:-$root/target}"
TARGET="${TARGET:-}"
if [ -n "$TARGET" ]; then libsrc="$target_dir/$TARGET/release"; else libsrc="$target_dir/release"; fi
case "${TARGET:-$(uname -s | tr '[:upper:]' '[:lower:]')}" in
  *apple-darwin | darwin) os=macos ;;
  *) os=elf ;;
esac

crate_version="$(awk '/^\[/ { in_pkg = ($0 == "[package]") } in_pkg && /^version *=/ { print; exit }' Cargo.toml |
  sed -E 's/^version *= *"([^"]+)".*/\1/')"
printf '%s\n' "$crate_version" | grep -Eq '^[0-9]+\.[0-9]+\.[0-9]+$' ||
  die "cannot read a MAJOR.MINOR.PATCH version from Cargo.toml"
IFS=. read -r major minor _patch <<<"$crate_version"
# The ABI-compatible series (the SONAME's version; build.rs sets the same):
# MAJOR.MINOR before 1.0, where a minor release may change the C ABI; MAJOR after.
if [ "$major" = 0 ]; then series="$major.$minor"; else series="$major"; fi

# File names of the shared library: the real file, the ABI name programs
# record (SONAME / install name) and the development name the linker finds.
if [ "$os" = macos ]; then
  built=libhookline.dylib
  real="libhookline.$series.dylib"
  soname="$real"
  devlink=libhookline.dylib
else
  built=libhookline.so
  real="libhookline.so.$crate_version"
  soname="libhookline.so.$series"
  devlink=libhookline.so
fi

# System libraries a program linking the static archive needs (the Rust
# standard library's: -lm for pow, -lpthread, ...; and the libc crate's, e.g.
# -liconv on macOS). rustc prints them for a staticlib; asking it for a
# one-line staticlib that links the build's own libc crate avoids rebuilding
# hookline. RUSTFLAGS are the build's (make dist passes the musl build's).
# (No other dependency links a system library; `make test-install` links the
# archive with exactly this list, so one that did would fail there.)
native_record="$libsrc/hookline-native-static-libs.txt"
native_static_libs_from_rustc() {
  command -v "${RUSTC:-rustc}" >/dev/null || return 1
  local tmp line libc_rlib extern=()
  tmp="$(mktemp -d)"
  libc_rlib="$(ls -t "$libsrc"/deps/liblibc-*.rlib 2>/dev/null | head -n 1 || true)"
  if [ -n "$libc_rlib" ]; then
    printf 'extern crate libc;\n' >"$tmp/probe.rs"
    extern=(--extern "libc=$libc_rlib" -L "dependency=$libsrc/deps")
  else
    printf '\n' >"$tmp/probe.rs"
  fi
  # shellcheck disable=SC2086
  line="$("${RUSTC:-rustc}" ${TARGET:+--target "$TARGET"} ${RUSTFLAGS:-} "${extern[@]}" --edition 2021 \
    --crate-type staticlib --crate-name hookline_probe --print native-static-libs \
    -o "$tmp/libprobe.a" "$tmp/probe.rs" 2>&1 | sed -n 's/^note: native-static-libs: //p')"
  rm -rf "$tmp"
  [ -n "$line" ] || die "rustc did not report its native static libraries${TARGET:+ for $TARGET}"
  printf '%s\n' "$line"
}
native_static_libs() {
  if [ -s "$native_record" ]; then
    cat "$native_record"
  elif ! native_static_libs_from_rustc; then
    die "$native_record is missing and rustc is not on PATH: run 'make' (it records the system libraries the static archive needs) before 'make install'"
  fi
}

if [ "${1:-}" = "--record-native-libs" ]; then
  [ -d "$libsrc" ] || die "$libsrc does not exist: build first"
  native_static_libs_from_rustc >"$native_record.tmp" || die "rustc is needed to record the native static libraries"
  mv "$native_record.tmp" "$native_record"
  exit 0
fi

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
    die "unreplaced placeholder in $template"
  fi
  printf '%s\n' "$text" >"$out"
}

# relpath FROM TO: TO relative to directory FROM (both absolute).
relpath() { realpath -m --relative-to="$1" "$2"; }

missing=()
for f in "$built" libhookline.a; do
  [ -f "$libsrc/$f" ] || missing+=("$f")
done
if [ "${#missing[@]}" -gt 0 ]; then
  if [ -n "$TARGET" ]; then
    die "nothing built for $TARGET: $libsrc lacks ${missing[*]} (make dist builds it)"
  fi
  die "nothing built to install: $libsrc lacks ${missing[*]}; run 'make' first (as your user: 'make install' does not build, so it works where cargo is not on PATH, e.g. as root)"
fi

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
BINDIR="${BINDIR:-$PREFIX/bin}"
DATADIR="${DATADIR:-$PREFIX/share}"
DESTDIR="${DESTDIR:-}"
if [ -n "$TARGET" ]; then STRIP="${STRIP-llvm-strip}"; else STRIP="${STRIP-strip}"; fi
LDCONFIG="${LDCONFIG:-$(command -v ldconfig || echo /sbin/ldconfig)}"
for d in "$PREFIX" "$LIBDIR" "$INCLUDEDIR" "$BINDIR" "$DATADIR"; do
  case "$d" in /*) ;; *) die "'$d' is not an absolute path" ;; esac
done
[ -x "$libsrc/hookline" ] || die "$libsrc/hookline is missing (the command, built with the library by 'make'): nothing installed"
if [ -n "$STRIP" ] && ! command -v "$STRIP" >/dev/null; then
  die "the strip program '$STRIP' is not on PATH (STRIP= installs the files unstripped)"
fi

pcdir="$LIBDIR/pkgconfig"
cmakedir="$LIBDIR/cmake/hookline"
docdir="$DATADIR/doc/hookline"

# strip_file KIND FILE: KIND is shared, archive or program.
strip_file() {
  [ -n "$STRIP" ] || return 0
  local opts
  case "$os:$1" in
    elf:shared) opts=(--strip-unneeded) ;; # the exported hl_* functions stay in the dynamic symbol table
    elf:program) opts=(--strip-all) ;;
    macos:shared | macos:program) opts=(-x) ;; # local symbols; llvm-strip signs arm64 code again
    *:archive) opts=(--strip-debug) ;;
  esac
  "$STRIP" "${opts[@]}" "$2"
}

install -d "$DESTDIR$LIBDIR" "$DESTDIR$INCLUDEDIR" "$DESTDIR$BINDIR" "$DESTDIR$pcdir" "$DESTDIR$cmakedir" "$DESTDIR$docdir"
install -m 0755 "$libsrc/$built" "$DESTDIR$LIBDIR/$real"
[ "$soname" = "$real" ] || ln -sfn "$real" "$DESTDIR$LIBDIR/$soname"
ln -sfn "$soname" "$DESTDIR$LIBDIR/$devlink"
install -m 0644 "$libsrc/libhookline.a" "$DESTDIR$LIBDIR/libhookline.a"
strip_file shared "$DESTDIR$LIBDIR/$real"
strip_file archive "$DESTDIR$LIBDIR/libhookline.a"
install -m 0644 include/hookline.h "$DESTDIR$INCLUDEDIR/hookline.h"
install -m 0755 "$libsrc/hookline" "$DESTDIR$BINDIR/hookline"
strip_file program "$DESTDIR$BINDIR/hookline"
install -m 0644 LICENSE-MIT LICENSE-APACHE README.md CHANGELOG.md "$DESTDIR$docdir/"
# The reference docs (the command's --help names docs/cli.md), beside the
# README so that its docs/... links work in the installed copy too.
install -d "$DESTDIR$docdir/docs"
install -m 0644 docs/*.md "$DESTDIR$docdir/docs/"

for pc in hookline hookline-static; do
  render "packaging/$pc.pc.in" "$DESTDIR$pcdir/$pc.pc" \
    PREFIX="\${pcfiledir}/$(relpath "$pcdir" "$PREFIX")" \
    LIBDIR="\${prefix}/$(relpath "$PREFIX" "$LIBDIR")" \
    INCLUDEDIR="\${prefix}/$(relpath "$PREFIX" "$INCLUDEDIR")" \
    VERSION="$crate_version" NATIVE_LIBS="$natives"
done

cmake_libs="$(printf '%s\n' "$natives" | tr ' ' '\n' | sed -n 's/^-l//p' | paste -sd';' -)"
if [ -n "$TARGET" ]; then
  pointer_bits="$("${RUSTC:-rustc}" --print cfg --target "$TARGET" | sed -n 's/^target_pointer_width="\([0-9]*\)"$/\1/p')"
else
  pointer_bits="$(getconf LONG_BIT)"
fi
render packaging/hooklineConfig.cmake.in "$DESTDIR$cmakedir/hooklineConfig.cmake" \
  CMAKE_TO_PREFIX="$(relpath "$cmakedir" "$PREFIX")" \
  LIBDIR_REL="$(relpath "$PREFIX" "$LIBDIR")" INCLUDEDIR_REL="$(relpath "$PREFIX" "$INCLUDEDIR")" \
  VERSION="$crate_version" SHARED_FILE="$real" SONAME="$( [ "$os" = macos ] && echo "@rpath/$soname" || echo "$soname")" \
  CMAKE_NATIVE_LIBS="$cmake_libs"
render packaging/hooklineConfigVersion.cmake.in "$DESTDIR$cmakedir/hooklineConfigVersion.cmake" \
  VERSION="$crate_version" MAJOR="$major" MINOR="$minor" SIZEOF_VOID_P="$((pointer_bits / 8))"

echo "install: hookline $crate_version installed under $DESTDIR$PREFIX"

# Make the new library known to the runtime linker where that is ours to do:
# root, installing for this machine into the real file system (no DESTDIR)
# on an ELF system. Elsewhere, say how the library will be found.
[ -z "$TARGET" ] && [ "$os" = elf ] && [ -z "$DESTDIR" ] && [ -x "$LDCONFIG" ] || exit 0
# The directories ld.so searches: its configuration plus the trusted ones.
searched="$("$LDCONFIG" -N -v 2>/dev/null | sed -n 's/^\(\/[^:]*\):.*/\1/p' || true)"
libdir_real="$(realpath -m "$LIBDIR")"
on_path=0
while IFS= read -r d; do
  [ -n "$d" ] && [ "$(realpath -m "$d")" = "$libdir_real" ] && on_path=1
done <<<"$searched"
if [ "$on_path" = 1 ] && [ "$(id -u)" = 0 ]; then
  echo "install: running $LDCONFIG: the runtime linker now finds $soname in $LIBDIR"
  "$LDCONFIG" || die "$LDCONFIG failed"
elif [ "$on_path" = 1 ]; then
  echo "install: $LIBDIR is on the runtime linker's path, but its cache is root's: run 'sudo ldconfig' (or start programs with LD_LIBRARY_PATH=$LIBDIR)"
else
  echo "install: $LIBDIR is not on the runtime linker's path: start programs with LD_LIBRARY_PATH=$LIBDIR, link them with -Wl,-rpath,$LIBDIR, or add $LIBDIR to /etc/ld.so.conf.d/ and run ldconfig as root"
fi
