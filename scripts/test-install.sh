#!/usr/bin/env bash
# `make test-install`: use hookline the way a user outside this checkout does.
#   1. `make install` into a temporary DESTDIR; check the files, the SONAME,
#      the symlinks and that the library is stripped;
#   2. C: build with only `pkg-config --cflags --libs hookline` and run;
#      link the archive statically (hookline-static.pc, and the archive plus
#      `pkg-config --static` libraries) and run without the shared library;
#   3. CMake: find_package(hookline) + hookline::hookline (and _static), run;
#   4. Go: a module in a temp dir requiring the binding (replace => this
#      checkout), `go mod vendor && go build`, run; also -tags hookline_static;
#   5. Node: the npm tarballs of `make npm-packages` (the main package and
#      this machine's platform package) installed into a fresh project the
#      way npm resolves them from a registry: the main package's optional
#      dependency on @hookline/<platform> picks the platform package (an
#      `overrides` entry points that name at the local tarball); require it
#      and run one event, with no HOOKLINE_LIB; then the README's TypeScript
#      quickstart compiled there with the README's own tsc command and run.
# Every program checks HL_VERSION_STRING against hl_version().
# Expects `make lib npm-packages` done (the Makefile target does it).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
work="$(mktemp -d "${TMPDIR:-/tmp}/hookline-test-install.XXXXXX")"
trap 'rm -rf "$work"' EXIT
fail() { echo "test-install: FAIL: $*" >&2; exit 1; }
step() { echo "test-install: $*"; }

version="$(awk '/^\[/ { in_pkg = ($0 == "[package]") } in_pkg && /^version *=/ { print; exit }' Cargo.toml |
  sed -E 's/^version *= *"([^"]+)".*/\1/')"
major="${version%%.*}"
minor="$(echo "$version" | cut -d. -f2)"
# The ABI series: the SONAME's version (MAJOR.MINOR before 1.0).
if [ "$major" = 0 ]; then series="$major.$minor"; else series="$major"; fi
prefix=/opt/hookline-test
destdir="$work/stage"
installed="$destdir$prefix"

# --- 1. make install ---------------------------------------------------------
step "make install PREFIX=$prefix DESTDIR=<tmp>"
make --no-print-directory install PREFIX="$prefix" DESTDIR="$destdir" >"$work/install.log" 2>&1 ||
  { cat "$work/install.log"; fail "make install failed"; }
for f in "lib/libhookline.so.$version" "lib/libhookline.so.$series" lib/libhookline.so lib/libhookline.a \
  include/hookline.h lib/pkgconfig/hookline.pc lib/pkgconfig/hookline-static.pc \
  lib/cmake/hookline/hooklineConfig.cmake lib/cmake/hookline/hooklineConfigVersion.cmake \
  share/doc/hookline/LICENSE-MIT share/doc/hookline/LICENSE-APACHE share/doc/hookline/README.md \
  share/doc/hookline/CHANGELOG.md share/doc/hookline/docs/cli.md share/doc/hookline/docs/c-api.md; do
  [ -e "$installed/$f" ] || fail "make install did not install $f"
done
# The installed command runs and checks a config.
[ -x "$installed/bin/hookline" ] || fail "make install did not install bin/hookline"
"$installed/bin/hookline" check "$root/examples/demo/hooks.json" >/dev/null || fail "the installed hookline command does not run"
[ "$(readlink "$installed/lib/libhookline.so.$series")" = "libhookline.so.$version" ] || fail "libhookline.so.$series is not a symlink to libhookline.so.$version"
[ "$(readlink "$installed/lib/libhookline.so")" = "libhookline.so.$series" ] || fail "libhookline.so is not a symlink to libhookline.so.$series"
soname="$(readelf -d "$installed/lib/libhookline.so.$version" | sed -n 's/.*Library soname: \[\(.*\)\].*/\1/p')"
[ "$soname" = "libhookline.so.$series" ] || fail "SONAME is '$soname', want libhookline.so.$series (one SONAME per ABI-compatible series)"
if readelf -S "$installed/lib/libhookline.so.$version" | grep -Eq '\.(debug_info|symtab)'; then
  fail "the installed shared library is not stripped"
fi
cmp -s include/hookline.h "$installed/include/hookline.h" || fail "installed header differs from include/hookline.h"
so_size="$(stat -c %s "$installed/lib/libhookline.so.$version")"
a_size="$(stat -c %s "$installed/lib/libhookline.a")"
step "installed: libhookline.so.$version $((so_size / 1024)) KiB (SONAME $soname), libhookline.a $((a_size / 1024)) KiB"

# Without DESTDIR, into a prefix the runtime linker does not search: no
# ldconfig, and the install says how programs will find the library.
step "make install PREFIX=<tmp> without DESTDIR: says how programs find the library"
make --no-print-directory install PREFIX="$work/prefix" >"$work/install-prefix.log" 2>&1 ||
  { cat "$work/install-prefix.log"; fail "make install PREFIX=$work/prefix failed"; }
grep -q "install: $work/prefix/lib is not on the runtime linker's path: start programs with LD_LIBRARY_PATH=$work/prefix/lib" \
  "$work/install-prefix.log" || { cat "$work/install-prefix.log"; fail "make install did not say how programs find the library"; }
if grep -q 'running .*ldconfig' "$work/install-prefix.log"; then fail "make install ran ldconfig for a prefix ld.so does not search"; fi

export PKG_CONFIG_PATH="$installed/lib/pkgconfig"
export PKG_CONFIG_LIBDIR="$installed/lib/pkgconfig"   # this prefix only, never the system's
unset PKG_CONFIG_SYSROOT_DIR
[ "$(pkg-config --modversion hookline)" = "$version" ] || fail "pkg-config --modversion hookline is not $version"

# A host program: version macros, one engine event with a shell hook that
# denies, one registry callback.
mkdir -p "$work/c"
cp scripts/packaging/consumer.c "$work/c/app.c"
export APP_WORKSPACE="$work/ws"
mkdir -p "$APP_WORKSPACE"

# no_hookline_needed BINARY: the program does not load libhookline.so.
no_hookline_needed() {
  if readelf -d "$1" | grep -q 'NEEDED.*libhookline'; then fail "$1 needs libhookline.so although linked statically"; fi
}

# --- 2. C with pkg-config ------------------------------------------------------
step "C: cc app.c \$(pkg-config --cflags --libs hookline)"
# shellcheck disable=SC2046
cc -Wall -Wextra -Werror -o "$work/c/app" "$work/c/app.c" $(pkg-config --cflags --libs hookline)
readelf -d "$work/c/app" | grep -q "NEEDED.*\[libhookline.so.$series\]" || fail "the program does not depend on libhookline.so.$series"
LD_LIBRARY_PATH="$installed/lib" "$work/c/app" || fail "the pkg-config-linked program failed"

step "C static: cc app.c \$(pkg-config --cflags --libs hookline-static)"
# shellcheck disable=SC2046
cc -Wall -Wextra -Werror -o "$work/c/app-static" "$work/c/app.c" $(pkg-config --cflags --libs hookline-static)
no_hookline_needed "$work/c/app-static"
env -u LD_LIBRARY_PATH "$work/c/app-static" || fail "the statically linked program failed"

step "C static: the archive plus \$(pkg-config --static --libs hookline) (Libs.private)"
static_libs="$(pkg-config --static --libs-only-l hookline | tr ' ' '\n' | grep -vx -- '-lhookline' | tr '\n' ' ')"
printf '%s\n' "$static_libs" | grep -q -- '-lm' || fail "pkg-config --static lists no -lm (pow and friends)"
# shellcheck disable=SC2086
cc -Wall -Wextra -Werror -o "$work/c/app-static2" "$work/c/app.c" $(pkg-config --cflags hookline) \
  "$installed/lib/libhookline.a" $static_libs
no_hookline_needed "$work/c/app-static2"
"$work/c/app-static2" || fail "the program linked with Libs.private failed"

# --- 3. CMake --------------------------------------------------------------------
step "CMake: find_package(hookline $version) + hookline::hookline / hookline::hookline_static"
mkdir -p "$work/cmake"
cp "$work/c/app.c" "$work/cmake/app.c"
cat >"$work/cmake/CMakeLists.txt" <<EOF
cmake_minimum_required(VERSION 3.16)
project(hookline_consumer C)
find_package(hookline $major.${version#*.} REQUIRED)
add_executable(app app.c)
target_link_libraries(app PRIVATE hookline::hookline)
add_executable(app_static app.c)
target_link_libraries(app_static PRIVATE hookline::hookline_static)
EOF
cmake -S "$work/cmake" -B "$work/cmake/build" -DCMAKE_PREFIX_PATH="$installed" >"$work/cmake.log" 2>&1 ||
  { cat "$work/cmake.log"; fail "cmake configure failed"; }
cmake --build "$work/cmake/build" >>"$work/cmake.log" 2>&1 || { cat "$work/cmake.log"; fail "cmake build failed"; }
"$work/cmake/build/app" || fail "the CMake-built program failed (build rpath to the imported library)"
no_hookline_needed "$work/cmake/build/app_static"
"$work/cmake/build/app_static" || fail "the CMake-built static program failed"
# The version file refuses a release with another ABI (before 1.0: another minor).
mkdir -p "$work/cmake-v"
newer="$major.$(( $(echo "$version" | cut -d. -f2) + 1 ))"
printf 'cmake_minimum_required(VERSION 3.16)\nproject(v C)\nfind_package(hookline %s REQUIRED)\n' "$newer" >"$work/cmake-v/CMakeLists.txt"
if cmake -S "$work/cmake-v" -B "$work/cmake-v/build" -DCMAKE_PREFIX_PATH="$installed" >"$work/cmake-v.log" 2>&1; then
  fail "find_package(hookline $newer) accepted the installed $version"
fi
grep -q "compatible with requested version \"$newer\"" "$work/cmake-v.log" ||
  { cat "$work/cmake-v.log"; fail "find_package(hookline $newer) failed for another reason than the version"; }

# --- 4. Go: a module outside the checkout, vendored ------------------------------
if command -v go >/dev/null; then
  step "Go: module in a temp dir, replace => bindings/go, go mod vendor && go build"
  mkdir -p "$work/go"
  cat >"$work/go/go.mod" <<EOF
module example.com/hostapp

go 1.22

require github.com/hookline/hookline/bindings/go v0.0.0

replace github.com/hookline/hookline/bindings/go => $root/bindings/go
EOF
  cp scripts/packaging/consumer.go "$work/go/main.go"
  (
    cd "$work/go"
    export GOFLAGS=-mod=mod GOWORK=off
    go mod vendor
    [ -f vendor/github.com/hookline/hookline/bindings/go/hookline.h ] || fail "the vendored binding has no hookline.h"
    export GOFLAGS=-mod=vendor
    go build -o hostapp .
    readelf -d hostapp | grep -q "NEEDED.*\[libhookline.so.$series\]" || fail "the Go program does not depend on libhookline.so.$series"
    if readelf -d hostapp | grep -E 'R(UN)?PATH' | grep -qF "$root"; then fail "the Go program has an rpath into the source tree"; fi
    LD_LIBRARY_PATH="$installed/lib" ./hostapp || fail "the vendored Go program failed"
    go build -tags hookline_static -o hostapp-static .
    no_hookline_needed hostapp-static
    env -u LD_LIBRARY_PATH ./hostapp-static || fail "the statically linked Go program failed"
    # The README's way to start a program built against an installed library without
    # LD_LIBRARY_PATH: the Go linker's -r records the library directory as its run path.
    go build -ldflags "-r $installed/lib" -o hostapp-rpath .
    env -u LD_LIBRARY_PATH ./hostapp-rpath || fail "the Go program built with -ldflags -r did not start without LD_LIBRARY_PATH"
    if CGO_ENABLED=0 go build -o /dev/null . >"$work/nocgo.log" 2>&1; then fail "the binding built without cgo"; fi
    grep -q 'hookline_requires_cgo' "$work/nocgo.log" || { cat "$work/nocgo.log"; fail "building without cgo does not say that cgo is required"; }
    [ "$(grep -c 'undefined:' "$work/nocgo.log")" = 1 ] || { cat "$work/nocgo.log"; fail "building without cgo prints errors besides the one saying that cgo is required"; }
  ) || exit 1
else
  fail "go is not installed (scripts/setup.sh)"
fi

# --- 5. Node: the npm tarballs, installed into a fresh project -------------------
command -v npm >/dev/null || fail "npm is not installed (scripts/setup.sh)"
npm_dir="${NPM_PACKAGES:-$root/build/npm}"
platform="$(cd bindings/node && node -p "require('./lib/platform').platformName()")"
main_tgz="$npm_dir/hookline-$version.tgz"
platform_tgz="$npm_dir/hookline-$platform-$version.tgz" # npm's file name for @hookline/$platform
for f in "$main_tgz" "$platform_tgz"; do [ -f "$f" ] || fail "$f is missing (make npm-packages)"; done
step "Node: @hookline/$platform picked through hookline's optionalDependencies in a fresh project; no HOOKLINE_LIB"
mkdir -p "$work/npm" "$work/node"
tar -tzf "$main_tgz" >"$work/npm/main.list"
for f in package/package.json package/LICENSE-MIT package/LICENSE-APACHE package/README.md package/index.js \
  package/index.mjs package/index.d.ts package/lib/platform.js; do
  grep -qx "$f" "$work/npm/main.list" || fail "the main npm tarball lacks $f"
done
if grep -Eq '^package/(test|prebuilds|scripts)/' "$work/npm/main.list"; then fail "the main npm tarball contains tests, prebuilds or scripts"; fi
if grep -q 'libhookline' "$work/npm/main.list"; then fail "the main npm tarball carries a library (the platform packages do)"; fi
tar -xzf "$main_tgz" -C "$work/npm" package/README.md
if grep -oE '\]\([^)[:space:]]+' "$work/npm/package/README.md" | sed 's/^](//' | grep -Ev '^(https?:|mailto:|#)'; then
  fail "the packed README has links that do not resolve on npm (above)"
fi
lib_file="$(cd bindings/node && node -p "require('./lib/platform').PLATFORMS['$platform'].file")"
tar -tzf "$platform_tgz" | sort >"$work/npm/platform.list"
printf '%s\n' package/LICENSE-APACHE package/LICENSE-MIT package/README.md "package/$lib_file" package/package.json | sort |
  cmp -s - "$work/npm/platform.list" ||
  { cat "$work/npm/platform.list"; fail "the platform tarball holds other files than its library, package.json, README and licences"; }
mkdir -p "$work/npm/platform" && tar -xzf "$platform_tgz" -C "$work/npm/platform"
if readelf -S "$work/npm/platform/package/$lib_file" | grep -Eq '\.(debug_info|symtab)'; then
  fail "the library in the platform package is not stripped"
fi
printf '{ "name": "hostapp", "version": "1.0.0", "private": true,\n  "overrides": { "@hookline/%s": "file:%s" } }\n' \
  "$platform" "$platform_tgz" >"$work/node/package.json"
cp scripts/packaging/consumer.js "$work/node/app.js"
(
  cd "$work/node"
  unset HOOKLINE_LIB
  # Only the main package is named: its optional dependency brings the platform package.
  npm install --no-audit --no-fund --prefer-offline --loglevel=error "$main_tgz" >"$work/npm/install.log" 2>&1 ||
    { cat "$work/npm/install.log"; fail "npm install <main tarball> failed"; }
  [ -d node_modules/koffi ] || fail "npm install did not install koffi"
  [ ! -L node_modules/hookline ] || fail "node_modules/hookline is a symlink, not an installed package"
  [ -f "node_modules/@hookline/$platform/$lib_file" ] ||
    fail "npm did not install @hookline/$platform through hookline's optionalDependencies"
  node app.js "$platform" || fail "the installed npm package failed"
) || exit 1

# The README's TypeScript quickstart, saved as the file the README names and
# compiled with the README's own tsc command line, in that fresh project.
step "Node: the README's TypeScript quickstart compiled with the README's tsc command in the fresh project"
tsc_line="$(grep -E '^npx tsc ' README.md | head -n 1 | sed 's/[[:space:]]*#.*$//')"
[ -n "$tsc_line" ] || fail "README.md has no 'npx tsc ...' line for the TypeScript quickstart"
ts_file="$(printf '%s\n' "$tsc_line" | awk '{print $NF}')"
case "$ts_file" in *.mts) ;; *) fail "the README's tsc line compiles '$ts_file', not a .mts file" ;; esac
awk '/^## Node quickstart/ { s = 1 } s && /^```ts/ { f = 1; next } f && /^```/ { exit } f' README.md >"$work/node/$ts_file"
[ -s "$work/node/$ts_file" ] || fail "README.md's Node quickstart has no ts block"
ts_version="$(cd bindings/node && node -p "require('./package.json').devDependencies.typescript")"
types_version="$(cd bindings/node && node -p "require('./package.json').devDependencies['@types/node']")"
(
  cd "$work/node"
  unset HOOKLINE_LIB
  npm install --no-audit --no-fund --prefer-offline --loglevel=error --save-dev "typescript@$ts_version" \
    "@types/node@$types_version" >>"$work/npm/install.log" 2>&1 ||
    { cat "$work/npm/install.log"; fail "npm install typescript @types/node failed"; }
  # shellcheck disable=SC2086
  $tsc_line >"$work/npm/tsc.log" 2>&1 || { cat "$work/npm/tsc.log"; fail "'$tsc_line' failed in a fresh project"; }
  node "${ts_file%.mts}.mjs" >"$work/npm/quickstart.log" 2>&1 ||
    { cat "$work/npm/quickstart.log"; fail "the compiled quickstart failed"; }
) || exit 1

step "all installed files work outside the checkout"
