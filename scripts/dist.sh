#!/usr/bin/env bash
# `make dist`: release tarballs, one per platform, and the npm packages.
#
#   scripts/dist.sh [PLATFORM...]     default: all six platforms below
#
# For each platform: cross-build the library and the `hookline` command with
# cargo zigbuild (zig links every target; the gnu builds against glibc 2.17,
# so they load on any glibc from 2.17 on), install them with
# scripts/install.sh into a staging tree (stripped, relocatable .pc and CMake
# files) and pack it, with a SHA256SUMS of its files, as
#   build/dist/hookline-VERSION-PLATFORM.tar.gz
# holding
#   hookline-VERSION-PLATFORM/
#     lib/libhookline.so.VERSION (SONAME libhookline.so.SERIES) + the
#         .so.SERIES and .so symlinks; on macOS lib/libhookline.SERIES.dylib
#         (install name @rpath/libhookline.SERIES.dylib) + libhookline.dylib
#     lib/libhookline.a, lib/pkgconfig/hookline{,-static}.pc,
#     lib/cmake/hookline/hooklineConfig{,Version}.cmake
#     include/hookline.h, bin/hookline
#     share/doc/hookline/{README.md,CHANGELOG.md,LICENSE-MIT,LICENSE-APACHE,docs/*.md}
#     SHA256SUMS
# windows-x64 is built with cargo and mingw-w64 (x86_64-pc-windows-gnu: it
# needs only system DLLs, no MinGW runtime) and holds
#   hookline-VERSION-windows-x64/
#     bin/hookline.dll, bin/hookline.exe (the DLL beside the command, where
#         Windows looks for it)
#     lib/hookline.lib (import library for MSVC's link.exe and clang, made
#         by llvm-dlltool from the header's hl_* functions),
#     lib/libhookline.dll.a (MinGW's import library), lib/pkgconfig/hookline.pc
#     include/hookline.h, share/doc/hookline/..., SHA256SUMS
# and a Python wheel build/dist/hookline-VERSION-py3-none-win_amd64.whl
# carrying the same hookline.dll.
# Then the npm platform packages (build/dist/npm/hookline-PLATFORM-VERSION.tgz,
# npm's name for @hookline/PLATFORM; windows-x64 is npm's win32-x64) carrying
# the same stripped libraries, the main package hookline-VERSION.tgz, and
# build/dist/SHA256SUMS over all.
# Needs scripts/setup-dist.sh (make setup-dist).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

ALL=(linux-x64-gnu linux-arm64-gnu linux-x64-musl darwin-x64 darwin-arm64 windows-x64)
platforms=("$@")
[ "${#platforms[@]}" -gt 0 ] || platforms=("${ALL[@]}")

die() { echo "dist: $*" >&2; exit 1; }
tools="$root/build/tools/zig/bin"
# zig builds every platform but Windows.
if printf '%s\n' "${platforms[@]}" | grep -qvx windows-x64; then
  [ -x "$tools/cargo-zigbuild" ] && [ -x "$tools/zig" ] || die "zig and cargo-zigbuild are missing: run scripts/setup-dist.sh (make setup-dist)"
fi
export PATH="$tools:$PATH"

version="$(awk '/^\[/ { in_pkg = ($0 == "[package]") } in_pkg && /^version *=/ { print; exit }' Cargo.toml |
  sed -E 's/^version *= *"([^"]+)".*/\1/')"
out="$root/build/dist"
stage="$out/stage"
rm -rf "$out"
mkdir -p "$out/npm" "$stage"

# A fixed time stamp for the archives' entries: the last commit's, when there is one.
epoch="$(git log -1 --format=%ct 2>/dev/null || echo 0)"

# triple PLATFORM: the Rust target triple.
triple() {
  case "$1" in
    linux-x64-gnu) echo x86_64-unknown-linux-gnu ;;
    linux-arm64-gnu) echo aarch64-unknown-linux-gnu ;;
    linux-x64-musl) echo x86_64-unknown-linux-musl ;;
    darwin-x64) echo x86_64-apple-darwin ;;
    darwin-arm64) echo aarch64-apple-darwin ;;
    windows-x64) echo x86_64-pc-windows-gnu ;;
    *) die "unknown platform '$1' (known: ${ALL[*]})" ;;
  esac
}

# build PLATFORM: cargo's release build for it, in target/TRIPLE/release.
build() {
  local platform="$1" t zig_target
  t="$(triple "$platform")"
  zig_target="$t"
  local env=()
  case "$platform" in
    # glibc 2.17 (CentOS 7, Amazon Linux 2, Debian 8 and everything since):
    # zig links against that version's symbols; the build script then leaves
    # out the posix_spawn path that needs glibc 2.29.
    *-gnu) zig_target="$t.2.17"; env+=(HOOKLINE_TARGET_GLIBC=2.17) ;;
    # Rust's musl targets link the C library statically by default, which
    # rules out a shared library: link musl's libc.so dynamically instead.
    *-musl) env+=("CARGO_TARGET_X86_64_UNKNOWN_LINUX_MUSL_RUSTFLAGS=-C target-feature=-crt-static") ;;
    # posix_spawn_file_actions_addchdir_np is macOS 10.15+; arm64 starts at 11.
    darwin-x64) env+=(MACOSX_DEPLOYMENT_TARGET=10.15) ;;
    darwin-arm64) env+=(MACOSX_DEPLOYMENT_TARGET=11.0) ;;
  esac
  echo "dist: $platform: cargo zigbuild --release --workspace --target $zig_target" >&2
  local started=$SECONDS
  # --workspace: the library and the command, also where they are separate crates.
  env "${env[@]}" cargo zigbuild --release --workspace --target "$zig_target" --quiet 2> >(grep -v -e 'xcrun' -e 'MacOSX.sdk' -e 'SDK is needed' -e 'DEVELOPER_DIR' -e '^ *|$' -e '^ *= ' -e 'generated 1 warning' -e '^$' >&2) ||
    die "$platform: the build failed"
  echo "dist: $platform: built in $((SECONDS - started)) s" >&2
}

# windows: cargo with mingw-w64's linker (zig's Windows target lacks what
# Rust's windows-gnu standard library links), then the staging tree by hand
# (install.sh writes a Unix layout).
build_windows() {
  local name="$1" t=x86_64-pc-windows-gnu started=$SECONDS
  command -v x86_64-w64-mingw32-gcc >/dev/null || die "windows-x64: x86_64-w64-mingw32-gcc is missing: run scripts/setup-dist.sh"
  command -v llvm-dlltool >/dev/null || die "windows-x64: llvm-dlltool is missing: run scripts/setup-dist.sh"
  echo "dist: windows-x64: cargo build --release --target $t" >&2
  # The same command as make test-windows: the two share cargo's output.
  cargo build --release --target "$t" --quiet || die "windows-x64: the build failed"
  echo "dist: windows-x64: built in $((SECONDS - started)) s" >&2
  local from="$root/target/$t/release" x="$stage/$name"
  mkdir -p "$x/bin" "$x/lib/pkgconfig" "$x/include" "$x/share/doc/hookline/docs"
  x86_64-w64-mingw32-strip -s -o "$x/bin/hookline.dll" "$from/hookline.dll"
  x86_64-w64-mingw32-strip -s -o "$x/bin/hookline.exe" "$from/hookline.exe"
  cp "$from/libhookline.dll.a" "$x/lib/libhookline.dll.a"
  { echo "LIBRARY hookline.dll"; echo "EXPORTS"; grep -oE '\bhl_[a-z0-9_]+\(' include/hookline.h | tr -d '(' | LC_ALL=C sort -u; } >"$stage/hookline.def"
  llvm-dlltool -m i386:x86-64 -D hookline.dll -d "$stage/hookline.def" -l "$x/lib/hookline.lib"
  cp include/hookline.h "$x/include/"
  cat >"$x/lib/pkgconfig/hookline.pc" <<PC
prefix=\${pcfiledir}/../..
libdir=\${prefix}/lib
includedir=\${prefix}/include

Name: hookline
Description: Lifecycle-hook engine for AI coding agents (C ABI)
Version: $version
Libs: -L\${libdir} -lhookline
Cflags: -I\${includedir}
PC
  cp README.md CHANGELOG.md LICENSE-MIT LICENSE-APACHE "$x/share/doc/hookline/"
  cp docs/*.md "$x/share/doc/hookline/docs/"
  find "$x" -type f -exec touch -d "@$epoch" {} +
}

for platform in "${platforms[@]}"; do
  t="$(triple "$platform")"
  name="hookline-$version-$platform"
  if [ "$platform" = windows-x64 ]; then
    build_windows "$name"
    (cd "$stage/$name" && find . -type f ! -name SHA256SUMS | sed 's|^\./||' | LC_ALL=C sort | xargs sha256sum >SHA256SUMS)
    tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$epoch" -C "$stage" -czf "$out/$name.tar.gz" "$name"
    echo "dist: $out/$name.tar.gz ($(( $(stat -c %s "$out/$name.tar.gz") / 1024 )) KiB)" >&2
    # The Python wheel for Windows, around the same DLL.
    [ -x "$root/build/python/venv/bin/python" ] || make -s python-env >&2
    HOOKLINE_WHEEL_LIB="$stage/$name/bin/hookline.dll" HOOKLINE_WHEEL_PLAT=win_amd64 \
      bindings/python/scripts/build-wheel.sh | sed 's/^/dist: /' >&2
    mv "$root/build/python/dist/hookline-$version-py3-none-win_amd64.whl" "$out/"
    continue
  fi
  build "$platform"
  rustflags=""
  [ "$platform" != linux-x64-musl ] || rustflags="-C target-feature=-crt-static"
  TARGET="$t" RUSTFLAGS="$rustflags" PREFIX="/$name" DESTDIR="$stage" STRIP=llvm-strip scripts/install.sh >/dev/null
  (cd "$stage/$name" && find . -type f ! -name SHA256SUMS | sed 's|^\./||' | LC_ALL=C sort | xargs sha256sum >SHA256SUMS)
  tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$epoch" -C "$stage" -czf "$out/$name.tar.gz" "$name"
  echo "dist: $out/$name.tar.gz ($(( $(stat -c %s "$out/$name.tar.gz") / 1024 )) KiB)" >&2
done

# npm: the platform packages carry the stripped library of each tarball.
pairs=()
for platform in "${platforms[@]}"; do
  name="hookline-$version-$platform"
  npm_platform="$platform"
  case "$platform" in
    darwin-*) lib="$stage/$name/lib/libhookline.$( [ "${version%%.*}" = 0 ] && echo "${version%.*}" || echo "${version%%.*}").dylib" ;;
    windows-x64) lib="$stage/$name/bin/hookline.dll" npm_platform=win32-x64 ;;
    *) lib="$stage/$name/lib/libhookline.so.$version" ;;
  esac
  [ -f "$lib" ] || die "$platform: $lib is missing from the staging tree"
  pairs+=("$npm_platform=$lib")
done
scripts/npm-pack.sh "$out/npm" "${pairs[@]}" | sed 's/^/dist: /' >&2

(cd "$out" && sha256sum -- *.tar.gz $(ls -- *.whl 2>/dev/null) npm/*.tgz >SHA256SUMS)
echo "dist: $out/SHA256SUMS"
