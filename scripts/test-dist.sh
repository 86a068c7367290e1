#!/usr/bin/env bash
# `make test-dist`: check the release artifacts `make dist` put in build/dist,
# the way a user gets them, without a Mac or an arm64 machine.
#
#   scripts/test-dist.sh [PLATFORM...]     default: all six
#
# Every tarball:
#   - holds exactly the expected files, and its SHA256SUMS (and build/dist's)
#     verify;
#   - library, archive and command are for the platform's architecture and
#     format (file, readelf / llvm-objdump), stripped (no symbol table or
#     debug sections; Mach-O: no local symbols), and the library exports
#     every hl_* function of the header (ELF: exactly those);
#   - SONAME / install name name the ABI series, the symlinks lead to the file;
#   - gnu builds need no glibc symbol version above 2.17; the musl build needs
#     musl's libc.so and no glibc; the macOS builds need only system
#     libraries, have the deployment target of the platform table, and arm64
#     code is validly signed (macOS loads no arm64 code whose signature does
#     not match, and stripping breaks it unless the strip tool signs again);
#   - the .pc files resolve into the unpacked tarball wherever it lies.
# And runs what runs here:
#   - linux-x64-gnu: a C program (pkg-config, shared and static), a CMake
#     project, a Go module (shared and -tags hookline_static) built against the
#     unpacked tarball, its `hookline` command, and the whole C test suite
#     (ctests/) against its library;
#   - linux-x64-musl: a C program linked against it with zig's musl target,
#     run with musl's dynamic loader; its command;
#   - linux-arm64-gnu: a C program cross-linked against it (shared and
#     static), run under qemu-user with Debian's arm64 glibc; its command too.
#   - windows-x64: PE32+ x86-64 DLL and console executable, stripped, the DLL
#     exporting exactly the header's hl_* functions and both needing only
#     Windows' own DLLs (no MinGW runtime); the import libraries name
#     hookline.dll; a C program (mingw-w64) links against each import library
#     and the Go binding cross-compiles (cgo, GOOS=windows, go vet and go
#     build) against the tarball; the win_amd64 wheel carries the same DLL.
#     (make test-windows runs the library, the command and a C host under Wine.)
# npm: the platform packages carry exactly the tarballs' libraries with the
# right os/cpu/libc; installed in a fresh project, npm picks this machine's
# package through the main package's optional dependencies and skips the
# others, and picks each other platform's package when told that platform
# (npm --os/--cpu/--libc).
# Needs make dist (build/dist) and scripts/setup-dist.sh.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
ALL=(linux-x64-gnu linux-arm64-gnu linux-x64-musl darwin-x64 darwin-arm64 windows-x64)
platforms=("$@")
[ "${#platforms[@]}" -gt 0 ] || platforms=("${ALL[@]}")

dist="$root/build/dist"
work="$(mktemp -d "${TMPDIR:-/tmp}/hookline-test-dist.XXXXXX")"
trap 'rm -rf "$work"' EXIT
export PATH="$root/build/tools/zig/bin:$PATH"
started=$SECONDS
checks=0
fail() { echo "test-dist: FAIL: $*" >&2; exit 1; }
step() { echo "test-dist: $*"; }
ok() { checks=$((checks + 1)); }

version="$(awk '/^\[/ { in_pkg = ($0 == "[package]") } in_pkg && /^version *=/ { print; exit }' Cargo.toml |
  sed -E 's/^version *= *"([^"]+)".*/\1/')"
major="${version%%.*}"
minor="$(echo "$version" | cut -d. -f2)"
if [ "$major" = 0 ]; then series="$major.$minor"; else series="$major"; fi

for tool in file readelf llvm-objdump llvm-nm $(printf '%s\n' "${platforms[@]}" | grep -qvx windows-x64 && echo zig qemu-aarch64-static); do
  command -v "$tool" >/dev/null || fail "$tool is missing: run scripts/setup-dist.sh"
done
[ -f "$dist/SHA256SUMS" ] || fail "$dist/SHA256SUMS is missing: run make dist"

step "build/dist/SHA256SUMS verifies"
(cd "$dist" && sha256sum --quiet -c SHA256SUMS) || fail "build/dist/SHA256SUMS does not verify"
ok

# The functions the header declares: the library must export each one.
grep -oE '\bhl_[a-z0-9_]+\(' include/hookline.h | tr -d '(' | sort -u >"$work/header-functions"
[ "$(wc -l <"$work/header-functions")" -gt 20 ] || fail "found too few hl_* functions in include/hookline.h"

# npm_name PLATFORM: npm's name of a release platform (process.platform-cpu).
npm_name() { if [ "$1" = windows-x64 ]; then echo win32-x64; else echo "$1"; fi; }

# expect_files DIR PLATFORM: DIR holds exactly the files of a release tarball.
expect_files() {
  local dir="$1" platform="$2" n="hookline-$version-$2"
  if [ "$platform" = windows-x64 ]; then
    {
      printf '%s\n' "$n/SHA256SUMS" "$n/bin/hookline.exe" "$n/bin/hookline.dll" "$n/include/hookline.h" \
        "$n/lib/hookline.lib" "$n/lib/libhookline.dll.a" "$n/lib/pkgconfig/hookline.pc" \
        "$n/share/doc/hookline/README.md" "$n/share/doc/hookline/CHANGELOG.md" \
        "$n/share/doc/hookline/LICENSE-MIT" "$n/share/doc/hookline/LICENSE-APACHE"
      for d in docs/*.md; do echo "$n/share/doc/hookline/$d"; done
    } | LC_ALL=C sort >"$work/want-files"
    (cd "$dir" && find "$n" ! -type d | LC_ALL=C sort) >"$work/have-files"
    diff -u "$work/want-files" "$work/have-files" >&2 || fail "$platform: the tarball holds other files than expected (diff above: - missing, + extra)"
    return
  fi
  {
    case "$platform" in
      darwin-*) printf '%s\n' "$n/lib/libhookline.$series.dylib" "$n/lib/libhookline.dylib" ;;
      *) printf '%s\n' "$n/lib/libhookline.so.$version" "$n/lib/libhookline.so.$series" "$n/lib/libhookline.so" ;;
    esac
    printf '%s\n' "$n/SHA256SUMS" "$n/bin/hookline" "$n/include/hookline.h" "$n/lib/libhookline.a" \
      "$n/lib/pkgconfig/hookline.pc" "$n/lib/pkgconfig/hookline-static.pc" \
      "$n/lib/cmake/hookline/hooklineConfig.cmake" "$n/lib/cmake/hookline/hooklineConfigVersion.cmake" \
      "$n/share/doc/hookline/README.md" "$n/share/doc/hookline/CHANGELOG.md" \
      "$n/share/doc/hookline/LICENSE-MIT" "$n/share/doc/hookline/LICENSE-APACHE"
    for d in docs/*.md; do echo "$n/share/doc/hookline/$d"; done
  } | LC_ALL=C sort >"$work/want-files"
  (cd "$dir" && find "$n" ! -type d | LC_ALL=C sort) >"$work/have-files"
  diff -u "$work/want-files" "$work/have-files" >&2 || fail "$platform: the tarball holds other files than expected (diff above: - missing, + extra)"
}

# archive_formats ARCHIVE FORMAT: every member of ARCHIVE is an object of FORMAT.
archive_formats() {
  llvm-objdump -a "$1" 2>/dev/null | sed -n 's/.*file format //p' | sort -u >"$work/formats"
  [ "$(cat "$work/formats")" = "$2" ] || { echo "formats in $1: $(tr '\n' ' ' <"$work/formats")" >&2; return 1; }
}

# max_glibc FILE: the highest GLIBC_x.y version FILE needs (empty if none).
max_glibc() { readelf -V -W "$1" | grep -oE 'Name: GLIBC_[0-9.]+' | sed 's/Name: GLIBC_//' | sort -V | tail -n 1; }

check_elf() {
  local platform="$1" x="$2" machine
  local lib="$x/lib/libhookline.so.$version" cmd="$x/bin/hookline"
  case "$platform" in
    linux-arm64-gnu) machine=AArch64 ;;
    *) machine="X86-64" ;;
  esac
  # Architecture and format.
  file -b "$lib" | grep -q '^ELF 64-bit LSB shared object' || fail "$platform: lib is not a 64-bit ELF shared object: $(file -b "$lib")"
  file -b "$cmd" | grep -Eq '^ELF 64-bit LSB (pie )?executable|^ELF 64-bit LSB shared object' || fail "$platform: bin/hookline is not a 64-bit ELF executable: $(file -b "$cmd")"
  for f in "$lib" "$cmd"; do
    readelf -h "$f" | grep -q "Machine: .*$machine" || fail "$platform: $(basename "$f") is not for $machine: $(readelf -h "$f" | grep Machine)"
  done
  archive_formats "$x/lib/libhookline.a" "elf64-$( [ "$machine" = AArch64 ] && echo littleaarch64 || echo x86-64)" ||
    fail "$platform: libhookline.a does not hold only $machine ELF objects"
  ok
  # SONAME and symlinks.
  [ "$(readelf -d "$lib" | sed -n 's/.*Library soname: \[\(.*\)\].*/\1/p')" = "libhookline.so.$series" ] ||
    fail "$platform: SONAME is not libhookline.so.$series"
  [ "$(readlink "$x/lib/libhookline.so.$series")" = "libhookline.so.$version" ] && [ "$(readlink "$x/lib/libhookline.so")" = "libhookline.so.$series" ] ||
    fail "$platform: the symlinks do not lead libhookline.so -> .so.$series -> .so.$version"
  ok
  # Stripped.
  for f in "$lib" "$cmd"; do
    if readelf -S -W "$f" | grep -Eq '\.(symtab|debug_[a-z]+) '; then fail "$platform: $(basename "$f") is not stripped"; fi
  done
  if llvm-objdump -h "$x/lib/libhookline.a" | grep -q ' \.debug_'; then fail "$platform: libhookline.a has debug sections"; fi
  ok
  # Exports: exactly the header's functions.
  llvm-nm -D --defined-only --format=just-symbols "$lib" | sort -u >"$work/exports"
  diff -u "$work/header-functions" "$work/exports" >&2 || fail "$platform: the library exports other symbols than the header's hl_* functions (diff above)"
  ok
  case "$platform" in
    *-gnu)
      local f v
      for f in "$lib" "$cmd"; do
        v="$(max_glibc "$f")"
        [ -n "$v" ] || fail "$platform: $(basename "$f") needs no GLIBC symbol version at all: not a glibc build?"
        [ "$(printf '%s\n2.17\n' "$v" | sort -V | tail -n 1)" = 2.17 ] ||
          fail "$platform: $(basename "$f") needs GLIBC_$v, above 2.17: $(readelf -V -W "$f" | grep -oE 'GLIBC_[0-9.]+' | sort -uV | tr '\n' ' ')"
      done
      step "$platform: highest glibc symbol version needed: library $(max_glibc "$lib"), command $(max_glibc "$cmd") (limit 2.17)"
      ;;
    *-musl)
      readelf -d "$lib" | grep -q 'NEEDED.*\[libc\.so\]' || fail "$platform: the library does not need musl's libc.so"
      if readelf -V -W "$lib" "$cmd" | grep -q GLIBC_; then fail "$platform: a musl build needs glibc symbol versions"; fi
      if readelf -l "$cmd" | grep -q 'interpreter' && ! readelf -l "$cmd" | grep -q 'ld-musl-x86_64.so.1'; then
        fail "$platform: bin/hookline's interpreter is not musl's"
      fi
      ;;
  esac
  ok
}

check_macho() {
  local platform="$1" x="$2" arch minos
  local lib="$x/lib/libhookline.$series.dylib" cmd="$x/bin/hookline"
  case "$platform" in
    darwin-arm64) arch=ARM64 minos=11.0 ;;
    *) arch=X86_64 minos=10.15 ;;
  esac
  local fdesc; fdesc="$( [ "$arch" = ARM64 ] && echo arm64 || echo x86_64)"
  file -b "$lib" | grep -q "^Mach-O 64-bit $fdesc dynamically linked shared library" || fail "$platform: lib is not a $fdesc dylib: $(file -b "$lib")"
  file -b "$cmd" | grep -q "^Mach-O 64-bit $fdesc executable" || fail "$platform: bin/hookline is not a $fdesc executable: $(file -b "$cmd")"
  for f in "$lib" "$cmd"; do
    llvm-objdump --macho --private-header "$f" | grep -q "MH_MAGIC_64 *$arch " || fail "$platform: $(basename "$f") is not $arch"
  done
  archive_formats "$x/lib/libhookline.a" "mach-o $( [ "$arch" = ARM64 ] && echo arm64 || echo 64-bit x86-64)" ||
    fail "$platform: libhookline.a does not hold only $arch Mach-O objects"
  ok
  # Install name, symlink, deployment target, dependencies.
  [ "$(llvm-objdump --macho --dylib-id "$lib" | tail -n 1)" = "@rpath/libhookline.$series.dylib" ] ||
    fail "$platform: the install name is not @rpath/libhookline.$series.dylib: $(llvm-objdump --macho --dylib-id "$lib" | tail -n 1)"
  [ "$(readlink "$x/lib/libhookline.dylib")" = "libhookline.$series.dylib" ] || fail "$platform: libhookline.dylib does not lead to libhookline.$series.dylib"
  for f in "$lib" "$cmd"; do
    llvm-objdump --macho --private-headers "$f" | grep -A4 LC_BUILD_VERSION | grep -q "minos $minos$" ||
      fail "$platform: $(basename "$f") does not have macOS $minos as its deployment target"
    llvm-objdump --macho --dylibs-used "$f" | tail -n +2 | awk '{print $1}' | grep -v '^@rpath/libhookline' >"$work/deps" || true
    if grep -Ev '^/usr/lib/|^/System/Library/' "$work/deps"; then fail "$platform: $(basename "$f") needs libraries outside macOS's own (above)"; fi
  done
  ok
  # Stripped: no local or debugging symbols left; no debug sections in the archive.
  for f in "$lib" "$cmd"; do
    local locals; locals="$(llvm-nm --defined-only "$f" | awk '$2 ~ /^[a-z]$/' | wc -l)"
    [ "$locals" = 0 ] || fail "$platform: $(basename "$f") keeps $locals local symbols (not stripped)"
    if llvm-nm -a "$f" | grep -q ' - '; then fail "$platform: $(basename "$f") keeps debugging (stab) symbols"; fi
  done
  if llvm-objdump -h "$x/lib/libhookline.a" | grep -q '__debug_'; then fail "$platform: libhookline.a has debug sections"; fi
  ok
  # Exports: every function of the header.
  llvm-objdump --macho --exports-trie "$lib" | awk '{print $2}' | sed -n 's/^_//p' | sort -u >"$work/exports"
  comm -23 "$work/header-functions" "$work/exports" >"$work/unexported"
  [ ! -s "$work/unexported" ] || fail "$platform: the library does not export $(tr '\n' ' ' <"$work/unexported")"
  ok
  # Code signatures: required for arm64, checked wherever present.
  for f in "$lib" "$cmd"; do
    if [ "$arch" = ARM64 ]; then
      python3 scripts/packaging/macho-signature.py --required "$f" >/dev/null || fail "$platform: $(basename "$f") is not validly signed"
    else
      python3 scripts/packaging/macho-signature.py "$f" >/dev/null || fail "$platform: $(basename "$f") has a broken signature"
    fi
  done
  ok
  step "$platform: $arch Mach-O, install name @rpath/libhookline.$series.dylib, macOS $minos+, stripped$( [ "$arch" = ARM64 ] && echo ', signatures verified'); exports $(wc -l <"$work/exports") symbols (the header's $(wc -l <"$work/header-functions") among them)"
}

# check_pc PLATFORM DIR: the .pc files lead into DIR wherever it was unpacked.
check_pc() {
  local platform="$1" x="$2" libdir incdir
  libdir="$(PKG_CONFIG_LIBDIR="$x/lib/pkgconfig" pkg-config --variable=libdir hookline)"
  incdir="$(PKG_CONFIG_LIBDIR="$x/lib/pkgconfig" pkg-config --variable=includedir hookline)"
  [ "$(realpath "$libdir")" = "$(realpath "$x/lib")" ] && [ "$(realpath "$incdir")" = "$(realpath "$x/include")" ] ||
    fail "$platform: hookline.pc does not lead into the unpacked tarball (libdir $libdir, includedir $incdir)"
  [ "$(PKG_CONFIG_LIBDIR="$x/lib/pkgconfig" pkg-config --modversion hookline-static)" = "$version" ] ||
    fail "$platform: hookline-static.pc is not version $version"
  ok
}

# The DLLs a Windows build may import: Windows' own (no MinGW runtime such as
# libgcc_s_seh-1.dll or libwinpthread-1.dll, which a user would not have).
WINDOWS_SYSTEM_DLLS='^(kernel32|ntdll|advapi32|bcrypt|bcryptprimitives|userenv|ws2_32|msvcrt|api-ms-win-[a-z0-9-]+)\.dll$'

check_windows() {
  local platform="$1" x="$2" f
  local dll="$x/bin/hookline.dll" exe="$x/bin/hookline.exe"
  command -v x86_64-w64-mingw32-gcc >/dev/null || fail "x86_64-w64-mingw32-gcc is missing: run scripts/setup-dist.sh"
  file -b "$dll" | grep -c '^PE32+ executable (DLL) (console) x86-64' >/dev/null || fail "$platform: bin/hookline.dll is not an x86-64 PE32+ DLL: $(file -b "$dll")"
  file -b "$exe" | grep -c '^PE32+ executable (console) x86-64' >/dev/null || fail "$platform: bin/hookline.exe is not an x86-64 PE32+ console program: $(file -b "$exe")"
  ok
  # Stripped: no COFF symbol table, no DWARF sections.
  for f in "$dll" "$exe"; do
    if x86_64-w64-mingw32-objdump -h "$f" | grep -c ' \.debug_' >/dev/null; then fail "$platform: $(basename "$f") has debug sections"; fi
    [ "$(x86_64-w64-mingw32-objdump -t "$f" 2>/dev/null | grep -c '^\[')" = 0 ] || fail "$platform: $(basename "$f") keeps a symbol table"
  done
  ok
  # Exports: exactly the header's functions.
  x86_64-w64-mingw32-objdump -p "$dll" | sed -n '/\[Ordinal\/Name Pointer\] Table/,/^$/p' | awk '/\[/ && NF >= 3 {print $NF}' |
    grep -v '^Table$' | LC_ALL=C sort -u >"$work/exports"
  diff -u "$work/header-functions" "$work/exports" >&2 || fail "$platform: hookline.dll exports other symbols than the header's hl_* functions (diff above)"
  ok
  # Imports: Windows' own DLLs only.
  for f in "$dll" "$exe"; do
    x86_64-w64-mingw32-objdump -p "$f" | sed -n 's/^\s*DLL Name: //p' | tr 'A-Z' 'a-z' | sort -u >"$work/imports"
    if grep -Ev "$WINDOWS_SYSTEM_DLLS" "$work/imports"; then fail "$platform: $(basename "$f") needs DLLs Windows does not ship (above)"; fi
  done
  ok
  # The import libraries lead to hookline.dll.
  for f in "$x/lib/hookline.lib" "$x/lib/libhookline.dll.a"; do
    strings "$f" | grep -cx 'hookline.dll' >/dev/null || fail "$platform: $(basename "$f") does not name hookline.dll"
  done
  ok
  step "$platform: PE32+ x86-64, stripped, exports exactly the header's $(wc -l <"$work/exports") hl_* functions, imports $(tr '\n' ' ' <"$work/imports")"
  # A C program links against each import library; the Go binding builds with cgo for Windows.
  mkdir -p "$work/win"
  for f in hookline.lib libhookline.dll.a; do
    x86_64-w64-mingw32-gcc -Wall -Wextra -Werror -I"$x/include" -o "$work/win/app-${f%%.*}.exe" scripts/packaging/consumer.c "$x/lib/$f" ||
      fail "$platform: a C program does not link against lib/$f"
    x86_64-w64-mingw32-objdump -p "$work/win/app-${f%%.*}.exe" | grep -c 'DLL Name: hookline.dll' >/dev/null || fail "$platform: the program linked with lib/$f does not import hookline.dll"
  done
  ok
  mkdir -p "$work/win/go"
  cp scripts/packaging/consumer.go "$work/win/go/main.go"
  printf 'module example.com/hostapp\n\ngo 1.22\n\nrequire github.com/hookline/hookline/bindings/go v0.0.0\n\nreplace github.com/hookline/hookline/bindings/go => %s\n' \
    "$root/bindings/go" >"$work/win/go/go.mod"
  (
    cd "$work/win/go"
    export GOFLAGS=-mod=mod GOWORK=off GOOS=windows GOARCH=amd64 CGO_ENABLED=1 CC=x86_64-w64-mingw32-gcc \
      PKG_CONFIG_PATH="$x/lib/pkgconfig" PKG_CONFIG_LIBDIR="$x/lib/pkgconfig"
    go mod vendor && export GOFLAGS=-mod=vendor
    go vet github.com/hookline/hookline/bindings/go . || fail "windows-x64: go vet of the Go binding for GOOS=windows failed"
    go build -o hostapp.exe . || fail "windows-x64: the Go program does not build for GOOS=windows against the tarball"
    x86_64-w64-mingw32-objdump -p hostapp.exe | grep -c 'DLL Name: hookline.dll' >/dev/null || fail "windows-x64: the Go program does not import hookline.dll"
  ) || exit 1
  ok
  step "$platform: a C program (mingw-w64) links against hookline.lib and libhookline.dll.a; the Go binding vets and builds for GOOS=windows (cgo)"
  # The Python wheel carries the same DLL, tagged for 64-bit Windows.
  local whl="$dist/hookline-$version-py3-none-win_amd64.whl"
  [ -f "$whl" ] || fail "$whl is missing: run make dist"
  python3 - "$whl" "$dll" <<'PY' || fail "$platform: the win_amd64 wheel is wrong (above)"
import sys, zipfile
whl, dll = sys.argv[1:]
z = zipfile.ZipFile(whl)
names = z.namelist()
bad = []
if "hookline/hookline.dll" not in names:
    bad.append("no hookline/hookline.dll")
elif z.read("hookline/hookline.dll") != open(dll, "rb").read():
    bad.append("hookline/hookline.dll is not the tarball's")
if any(n.endswith((".so", ".dylib")) for n in names):
    bad.append("it carries a Unix library")
wheel = next(n for n in names if n.endswith(".dist-info/WHEEL"))
tags = [l.split(": ", 1)[1] for l in z.read(wheel).decode().splitlines() if l.startswith("Tag: ")]
if tags != ["py3-none-win_amd64"] or "Root-Is-Purelib: false" not in z.read(wheel).decode():
    bad.append(f"tags {tags}")
if bad:
    print("; ".join(bad), file=sys.stderr)
    sys.exit(1)
PY
  ok
  step "$platform: $(basename "$whl") carries the tarball's hookline.dll ($(( $(stat -c %s "$whl") / 1024 )) KiB)"
}

export APP_WORKSPACE="$work/ws"
mkdir -p "$APP_WORKSPACE"

run_x64_gnu() {
  local x="$1"
  step "linux-x64-gnu: C (pkg-config, shared and static), CMake and Go against the unpacked tarball; its command"
  mkdir -p "$work/gnu"
  # shellcheck disable=SC2046
  cc -Wall -Wextra -Werror -o "$work/gnu/app" scripts/packaging/consumer.c \
    $(PKG_CONFIG_LIBDIR="$x/lib/pkgconfig" pkg-config --cflags --libs hookline)
  LD_LIBRARY_PATH="$x/lib" "$work/gnu/app" >/dev/null || fail "linux-x64-gnu: the C program failed"
  # shellcheck disable=SC2046
  cc -Wall -Wextra -Werror -o "$work/gnu/app-static" scripts/packaging/consumer.c \
    $(PKG_CONFIG_LIBDIR="$x/lib/pkgconfig" pkg-config --cflags --libs hookline-static)
  env -u LD_LIBRARY_PATH "$work/gnu/app-static" >/dev/null || fail "linux-x64-gnu: the statically linked C program failed"
  ok
  mkdir -p "$work/gnu/cmake"
  cp scripts/packaging/consumer.c "$work/gnu/cmake/app.c"
  printf 'cmake_minimum_required(VERSION 3.16)\nproject(c C)\nfind_package(hookline %s REQUIRED)\nadd_executable(app app.c)\ntarget_link_libraries(app PRIVATE hookline::hookline)\n' \
    "$series" >"$work/gnu/cmake/CMakeLists.txt"
  cmake -S "$work/gnu/cmake" -B "$work/gnu/cmake/build" -DCMAKE_PREFIX_PATH="$x" >"$work/gnu/cmake.log" 2>&1 &&
    cmake --build "$work/gnu/cmake/build" >>"$work/gnu/cmake.log" 2>&1 || { cat "$work/gnu/cmake.log"; fail "linux-x64-gnu: CMake find_package(hookline) from the tarball failed"; }
  "$work/gnu/cmake/build/app" >/dev/null || fail "linux-x64-gnu: the CMake-built program failed"
  ok
  mkdir -p "$work/gnu/go"
  cp scripts/packaging/consumer.go "$work/gnu/go/main.go"
  printf 'module example.com/hostapp\n\ngo 1.22\n\nrequire github.com/hookline/hookline/bindings/go v0.0.0\n\nreplace github.com/hookline/hookline/bindings/go => %s\n' \
    "$root/bindings/go" >"$work/gnu/go/go.mod"
  (
    cd "$work/gnu/go"
    # Vendored, so that the binding's package lies in this module: Go's build
    # cache keys a cgo package by its directory, not by pkg-config's --libs.
    export GOFLAGS=-mod=mod GOWORK=off PKG_CONFIG_PATH="$x/lib/pkgconfig" PKG_CONFIG_LIBDIR="$x/lib/pkgconfig"
    go mod vendor && export GOFLAGS=-mod=vendor
    go build -o hostapp . && LD_LIBRARY_PATH="$x/lib" ./hostapp >/dev/null || fail "linux-x64-gnu: the Go program built against the tarball failed"
    go build -tags hookline_static -o hostapp-static . && env -u LD_LIBRARY_PATH ./hostapp-static >/dev/null ||
      fail "linux-x64-gnu: the Go program linked statically against the tarball failed"
  ) || exit 1
  ok
  run_command linux-x64-gnu "$x/bin/hookline"
  # The whole C suite against the shipped library: the glibc 2.17 builds start
  # hooks through std::process::Command, a path no build for this machine takes.
  step "linux-x64-gnu: the C test suite (ctest) against the library in the tarball"
  cmake -S ctests -B "$work/gnu/ctests" -DCMAKE_BUILD_TYPE=Debug -DHOOKLINE_LIB_DIR="$x/lib" >"$work/gnu/ctests.log" 2>&1 &&
    cmake --build "$work/gnu/ctests" -j2 >>"$work/gnu/ctests.log" 2>&1 ||
    { cat "$work/gnu/ctests.log"; fail "linux-x64-gnu: the C tests do not build against the tarball's library"; }
  readelf -d "$work/gnu/ctests/test_engine_faults" | grep -q "R.*PATH.*$x/lib" ||
    fail "linux-x64-gnu: the C tests are not linked against the tarball's library"
  (cd "$work/gnu/ctests" && ctest --output-on-failure -j2 >"$work/gnu/ctest.log" 2>&1) ||
    { cat "$work/gnu/ctest.log"; fail "linux-x64-gnu: the C test suite fails against the tarball's library"; }
  grep -E 'tests passed|Total Test time' "$work/gnu/ctest.log" | sed 's/^/test-dist: linux-x64-gnu: ctest: /'
  ok
}

# run_command PLATFORM COMMAND...: the command checks the demo config and
# denies `rm -rf` through it (exit 2), as the README shows.
run_command() {
  local platform="$1"; shift
  "$@" check examples/demo/hooks.json >/dev/null || fail "$platform: hookline check failed"
  local rc=0
  echo '{"tool_name":"Bash","tool_input":{"command":"rm -rf build"}}' |
    "$@" run PreToolUse --config examples/demo/hooks.json --workspace examples/demo --input - >"$work/run.out" 2>&1 || rc=$?
  [ "$rc" = 2 ] && grep -q 'recursive delete blocked' "$work/run.out" ||
    { cat "$work/run.out"; fail "$platform: hookline run did not deny rm -rf (exit $rc, want 2)"; }
  ok
}

run_x64_musl() {
  local x="$1"
  step "linux-x64-musl: a C program linked with zig's musl target, run with musl's loader; its command"
  [ -e /lib/ld-musl-x86_64.so.1 ] || fail "musl's dynamic loader is missing (scripts/setup-dist.sh installs musl)"
  mkdir -p "$work/musl"
  zig cc -target x86_64-linux-musl -Wall -Wextra -Werror -I"$x/include" scripts/packaging/consumer.c -L"$x/lib" -lhookline \
    -o "$work/musl/app" 2>"$work/musl/cc.log" || { cat "$work/musl/cc.log"; fail "linux-x64-musl: zig cc failed"; }
  readelf -l "$work/musl/app" | grep -q 'ld-musl-x86_64.so.1' || fail "linux-x64-musl: the program is not a musl program"
  LD_LIBRARY_PATH="$x/lib" "$work/musl/app" >/dev/null || fail "linux-x64-musl: the C program failed with the musl library"
  ok
  run_command linux-x64-musl "$x/bin/hookline"
}

run_arm64() {
  local x="$1" sysroot=/usr/aarch64-linux-gnu
  step "linux-arm64-gnu: a C program cross-linked against it (shared and static), run under qemu-user; its command under qemu"
  [ -e "$sysroot/lib/ld-linux-aarch64.so.1" ] || fail "$sysroot has no arm64 glibc (scripts/setup-dist.sh installs libc6-arm64-cross)"
  mkdir -p "$work/arm64"
  zig cc -target aarch64-linux-gnu.2.17 -Wall -Wextra -Werror -I"$x/include" scripts/packaging/consumer.c -L"$x/lib" -lhookline \
    -o "$work/arm64/app" 2>"$work/arm64/cc.log" || { cat "$work/arm64/cc.log"; fail "linux-arm64-gnu: zig cc failed"; }
  readelf -h "$work/arm64/app" | grep -q 'Machine: *AArch64' || fail "linux-arm64-gnu: the program is not an arm64 program"
  local out
  out="$(QEMU_LD_PREFIX="$sysroot" LD_LIBRARY_PATH="$x/lib" qemu-aarch64-static "$work/arm64/app")" ||
    fail "linux-arm64-gnu: the C program failed under qemu"
  [ "$out" = "hookline $version ok" ] || fail "linux-arm64-gnu: the program printed '$out'"
  # shellcheck disable=SC2046
  zig cc -target aarch64-linux-gnu.2.17 -Wall -Wextra -Werror -I"$x/include" scripts/packaging/consumer.c "$x/lib/libhookline.a" \
    $(PKG_CONFIG_LIBDIR="$x/lib/pkgconfig" pkg-config --static --libs-only-l hookline | tr ' ' '\n' | grep -vx -- -lhookline) \
    -o "$work/arm64/app-static" 2>"$work/arm64/cc.log" || { cat "$work/arm64/cc.log"; fail "linux-arm64-gnu: zig cc (static) failed"; }
  if readelf -d "$work/arm64/app-static" | grep -q 'NEEDED.*libhookline'; then fail "linux-arm64-gnu: the static program needs libhookline.so"; fi
  QEMU_LD_PREFIX="$sysroot" qemu-aarch64-static "$work/arm64/app-static" >/dev/null || fail "linux-arm64-gnu: the static C program failed under qemu"
  ok
  run_command linux-arm64-gnu env QEMU_LD_PREFIX="$sysroot" qemu-aarch64-static "$x/bin/hookline"
}

for platform in "${platforms[@]}"; do
  name="hookline-$version-$platform"
  tarball="$dist/$name.tar.gz"
  [ -f "$tarball" ] || fail "$tarball is missing: run make dist"
  step "$platform: $(basename "$tarball") ($(( $(stat -c %s "$tarball") / 1024 )) KiB)"
  # Unpacked in a directory of its own: nothing may depend on where it lies.
  dir="$work/unpacked-$platform"
  mkdir -p "$dir"
  tar -xzf "$tarball" -C "$dir"
  x="$dir/$name"
  expect_files "$dir" "$platform"
  (cd "$x" && sha256sum --quiet -c SHA256SUMS) || fail "$platform: the tarball's SHA256SUMS does not verify"
  [ "$(wc -l <"$x/SHA256SUMS")" = "$(find "$x" -type f ! -name SHA256SUMS | wc -l)" ] || fail "$platform: SHA256SUMS does not list every file"
  cmp -s include/hookline.h "$x/include/hookline.h" || fail "$platform: the header differs from include/hookline.h"
  ok
  case "$platform" in
    darwin-*) check_macho "$platform" "$x" ;;
    windows-x64) check_windows "$platform" "$x"; continue ;;
    *) check_elf "$platform" "$x" ;;
  esac
  check_pc "$platform" "$x"
  case "$platform" in
    linux-x64-gnu) run_x64_gnu "$x" ;;
    linux-x64-musl) run_x64_musl "$x" ;;
    linux-arm64-gnu) run_arm64 "$x" ;;
  esac
done

# --- npm ------------------------------------------------------------------------
step "npm: each platform package carries its tarball's library with its os/cpu/libc"
main_tgz="$dist/npm/hookline-$version.tgz"
[ -f "$main_tgz" ] || fail "$main_tgz is missing: run make dist"
mkdir -p "$work/npm"
overrides=""
for release_platform in "${platforms[@]}"; do
  platform="$(npm_name "$release_platform")"
  tgz="$dist/npm/hookline-$platform-$version.tgz"
  [ -f "$tgz" ] || fail "$tgz is missing"
  mkdir -p "$work/npm/$platform"
  tar -xzf "$tgz" -C "$work/npm/$platform"
  p="$work/npm/$platform/package"
  node -e '
    const [dir, platform, version] = process.argv.slice(1);
    const { PLATFORMS } = require("./bindings/node/lib/platform");
    const pkg = require(dir + "/package.json"), e = PLATFORMS[platform];
    const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
    const bad = [];
    if (pkg.name !== `@hookline/${platform}`) bad.push(`name ${pkg.name}`);
    if (pkg.version !== version) bad.push(`version ${pkg.version}`);
    if (!same(pkg.os, [e.os]) || !same(pkg.cpu, [e.cpu]) || !same(pkg.libc, e.libc ? [e.libc] : undefined)) bad.push(`os/cpu/libc ${pkg.os}/${pkg.cpu}/${pkg.libc}`);
    if (bad.length) { console.error(`${platform}: ${bad.join(", ")}`); process.exit(1); }
  ' "$p" "$platform" "$version" || fail "npm: @hookline/$platform has a wrong package.json"
  name="hookline-$version-$release_platform"
  case "$platform" in
    darwin-*) file="libhookline.dylib" from="lib/libhookline.$series.dylib" ;;
    win32-*) file="hookline.dll" from="bin/hookline.dll" ;;
    *) file="libhookline.so" from="lib/libhookline.so.$version" ;;
  esac
  cmp -s "$p/$file" "$work/unpacked-$release_platform/$name/$from" || fail "npm: @hookline/$platform's $file is not the library of $name.tar.gz"
  step "npm: @hookline/$platform: $(( $(stat -c %s "$tgz") / 1024 )) KiB packed"
  overrides="$overrides${overrides:+, }\"@hookline/$platform\": \"file:$tgz\""
  ok
done
tar -xzf "$main_tgz" -C "$work/npm" package/package.json
node -e '
  const pkg = require(process.argv[1]);
  const want = Object.fromEntries(Object.keys(require("./bindings/node/lib/platform").PLATFORMS).map((p) => [`@hookline/${p}`, pkg.version]));
  if (JSON.stringify(pkg.optionalDependencies) !== JSON.stringify(want)) { console.error(JSON.stringify(pkg.optionalDependencies)); process.exit(1); }
' "$work/npm/package/package.json" || fail "npm: the main package does not depend optionally on every platform package"
ok

# install_fresh DIR [NPM FLAGS...]: a fresh project whose npm resolves every
# @hookline/* name to the local tarballs; only the main package is named.
install_fresh() {
  local dir="$1"; shift
  mkdir -p "$dir"
  printf '{ "name": "hostapp", "version": "1.0.0", "private": true, "overrides": { %s } }\n' "$overrides" >"$dir/package.json"
  (cd "$dir" && env -u HOOKLINE_LIB npm install --no-audit --no-fund --prefer-offline --loglevel=error "$@" "$main_tgz") \
    >"$dir.log" 2>&1 || { cat "$dir.log"; fail "npm install in a fresh project ($*) failed"; }
  (cd "$dir/node_modules/@hookline" && ls) | tr '\n' ' ' | sed 's/ $//'
}
here="$(cd bindings/node && node -p "require('./lib/platform').platformName()")"
if printf '%s\n' "${platforms[@]}" | grep -qx "$here"; then
  step "npm: a fresh project on this machine ($here): npm installs only @hookline/$here"
  got="$(install_fresh "$work/npm/fresh")"
  [ "$got" = "$here" ] || fail "npm installed @hookline/{$got}, want only $here"
  cp scripts/packaging/consumer.js "$work/npm/fresh/app.js"
  (cd "$work/npm/fresh" && env -u HOOKLINE_LIB node app.js "$here" >/dev/null) || fail "npm: the installed packages do not run here"
  ok
fi
for release_platform in "${platforms[@]}"; do
  platform="$(npm_name "$release_platform")"
  [ "$platform" != "$here" ] || continue
  flags=(--os="$(cut -d- -f1 <<<"$platform")" --cpu="$(cut -d- -f2 <<<"$platform")")
  case "$platform" in *-gnu) flags+=(--libc=glibc) ;; *-musl) flags+=(--libc=musl) ;; esac
  got="$(install_fresh "$work/npm/as-$platform" "${flags[@]}")"
  [ "$got" = "$platform" ] || fail "npm ${flags[*]} installed @hookline/{$got}, want only $platform"
  ok
done
step "npm: told each other platform (npm --os/--cpu/--libc), npm installs exactly that platform's package"

step "${#platforms[@]} platforms checked in $((SECONDS - started)) s"
echo "test-dist: $checks passed, 0 failed"
