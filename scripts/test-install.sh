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
#   5. Node: `npm pack` in bindings/node, `npm install <tarball>` into a fresh
#      project, require it and run one event, with no HOOKLINE_LIB.
# Every program checks HL_VERSION_STRING against hl_version().
# Expects `make lib node-prebuild` done (the Makefile target does it).
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
prefix=/opt/hookline-test
destdir="$work/stage"
installed="$destdir$prefix"

# --- 1. make install ---------------------------------------------------------
step "make install PREFIX=$prefix DESTDIR=<tmp>"
make --no-print-directory install PREFIX="$prefix" DESTDIR="$destdir" >"$work/install.log" 2>&1 ||
  { cat "$work/install.log"; fail "make install failed"; }
for f in "lib/libhookline.so.$version" "lib/libhookline.so.$major" lib/libhookline.so lib/libhookline.a \
  include/hookline.h lib/pkgconfig/hookline.pc lib/pkgconfig/hookline-static.pc \
  lib/cmake/hookline/hooklineConfig.cmake lib/cmake/hookline/hooklineConfigVersion.cmake \
  share/doc/hookline/LICENSE-MIT share/doc/hookline/LICENSE-APACHE; do
  [ -e "$installed/$f" ] || fail "make install did not install $f"
done
# The installed command runs and checks a config.
[ -x "$installed/bin/hookline" ] || fail "make install did not install bin/hookline"
"$installed/bin/hookline" check "$root/examples/demo/hooks.json" >/dev/null || fail "the installed hookline command does not run"
[ "$(readlink "$installed/lib/libhookline.so.$major")" = "libhookline.so.$version" ] || fail "libhookline.so.$major is not a symlink to libhookline.so.$version"
[ "$(readlink "$installed/lib/libhookline.so")" = "libhookline.so.$major" ] || fail "libhookline.so is not a symlink to libhookline.so.$major"
soname="$(readelf -d "$installed/lib/libhookline.so.$version" | sed -n 's/.*Library soname: \[\(.*\)\].*/\1/p')"
[ "$soname" = "libhookline.so.$major" ] || fail "SONAME is '$soname', want libhookline.so.$major"
if readelf -S "$installed/lib/libhookline.so.$version" | grep -Eq '\.(debug_info|symtab)'; then
  fail "the installed shared library is not stripped"
fi
cmp -s include/hookline.h "$installed/include/hookline.h" || fail "installed header differs from include/hookline.h"
so_size="$(stat -c %s "$installed/lib/libhookline.so.$version")"
a_size="$(stat -c %s "$installed/lib/libhookline.a")"
step "installed: libhookline.so.$version $((so_size / 1024)) KiB (SONAME $soname), libhookline.a $((a_size / 1024)) KiB"

export PKG_CONFIG_PATH="$installed/lib/pkgconfig"
export PKG_CONFIG_LIBDIR="$installed/lib/pkgconfig"   # this prefix only, never the system's
unset PKG_CONFIG_SYSROOT_DIR
[ "$(pkg-config --modversion hookline)" = "$version" ] || fail "pkg-config --modversion hookline is not $version"

# A host program: version macros, one engine event with a shell hook that
# denies, one registry callback.
mkdir -p "$work/c"
cat >"$work/c/app.c" <<'EOF'
#include <hookline.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int32_t deny_all(void *ud, const char *ctx, size_t len, hl_reply *reply) {
  (void)ud; (void)ctx; (void)len;
  hl_reply_deny(reply, "denied by callback");
  return 0;
}

int main(void) {
  char expect[64];
  snprintf(expect, sizeof expect, "%d.%d.%d", HL_VERSION_MAJOR, HL_VERSION_MINOR, HL_VERSION_PATCH);
  if (strcmp(HL_VERSION_STRING, expect) != 0 || strcmp(hl_version(), HL_VERSION_STRING) != 0) {
    fprintf(stderr, "version mismatch: header %s (%s), library %s\n", HL_VERSION_STRING, expect, hl_version());
    return 1;
  }
  const char *ws = getenv("APP_WORKSPACE");
  char options[1024];
  snprintf(options, sizeof options,
           "{\"workspace\":\"%s\",\"session_id\":\"install-test\",\"trust_store\":\"%s/trust.json\","
           "\"hooks\":{\"PreToolUse\":[{\"matcher\":\"Bash\",\"hooks\":[{\"type\":\"command\","
           "\"command\":\"echo no >&2; exit 2\"}]}]}}", ws, ws);
  hl_engine *engine = NULL;
  char *err = NULL, *out = NULL;
  if (hl_engine_new(options, &engine, &err) != HL_OK) { fprintf(stderr, "engine: %s\n", err); return 1; }
  if (hl_engine_run(engine, HL_EVENT_PRE_TOOL_USE, "{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"ls\"}}",
                    &out, &err) != HL_OK) { fprintf(stderr, "run: %s\n", err); return 1; }
  int ok = strstr(out, "\"decision\":\"deny\"") != NULL;
  if (!ok) fprintf(stderr, "engine outcome: %s\n", out);
  hl_string_free(out);
  hl_engine_free(engine);

  hl_registry *reg = hl_registry_new();
  if (hl_registry_register(reg, HL_POINT_PRE_TOOL_CALL_DECIDE, "deny", deny_all, NULL, NULL, &err) != HL_OK) {
    fprintf(stderr, "register: %s\n", err); return 1;
  }
  if (hl_registry_run(reg, HL_POINT_PRE_TOOL_CALL_DECIDE, "{\"tool_name\":\"Bash\",\"tool_args\":{}}", &out, &err) != HL_OK) {
    fprintf(stderr, "registry run: %s\n", err); return 1;
  }
  if (!strstr(out, "\"allow\":false")) { fprintf(stderr, "registry outcome: %s\n", out); ok = 0; }
  hl_string_free(out);
  hl_registry_free(reg);
  if (!ok) return 1;
  printf("hookline %s ok\n", hl_version());
  return 0;
}
EOF
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
readelf -d "$work/c/app" | grep -q "NEEDED.*\[libhookline.so.$major\]" || fail "the program does not depend on libhookline.so.$major"
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
  cat >"$work/go/main.go" <<'EOF'
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	hookline "github.com/hookline/hookline/bindings/go"
)

func main() {
	engine, err := hookline.NewEngine(hookline.EngineOptions{
		Workspace: os.Getenv("APP_WORKSPACE"),
		SessionID:  "install-test-go",
		TrustStore: os.Getenv("APP_WORKSPACE") + "/trust.json",
		Hooks:      json.RawMessage(`{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"echo no >&2; exit 2"}]}]}`),
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "engine:", err)
		os.Exit(1)
	}
	defer engine.Close()
	out, err := engine.PreToolUse(context.Background(), hookline.PreToolUseInput{ToolName: "Bash", ToolInput: map[string]any{"command": "ls"}})
	if err != nil {
		fmt.Fprintln(os.Stderr, "run:", err)
		os.Exit(1)
	}
	if out.Decision != hookline.DecisionDeny {
		fmt.Fprintf(os.Stderr, "decision %q, want deny\n", out.Decision)
		os.Exit(1)
	}
	fmt.Println("hookline", hookline.Version(), "ok (go)")
}
EOF
  (
    cd "$work/go"
    export GOFLAGS=-mod=mod GOWORK=off
    go mod vendor
    [ -f vendor/github.com/hookline/hookline/bindings/go/hookline.h ] || fail "the vendored binding has no hookline.h"
    export GOFLAGS=-mod=vendor
    go build -o hostapp .
    readelf -d hostapp | grep -q "NEEDED.*\[libhookline.so.$major\]" || fail "the Go program does not depend on libhookline.so.$major"
    if readelf -d hostapp | grep -E 'R(UN)?PATH' | grep -qF "$root"; then fail "the Go program has an rpath into the source tree"; fi
    LD_LIBRARY_PATH="$installed/lib" ./hostapp || fail "the vendored Go program failed"
    go build -tags hookline_static -o hostapp-static .
    no_hookline_needed hostapp-static
    env -u LD_LIBRARY_PATH ./hostapp-static || fail "the statically linked Go program failed"
    if CGO_ENABLED=0 go build -o /dev/null . >"$work/nocgo.log" 2>&1; then fail "the binding built without cgo"; fi
    grep -q 'hookline_requires_cgo' "$work/nocgo.log" || { cat "$work/nocgo.log"; fail "building without cgo does not say that cgo is required"; }
  ) || exit 1
else
  fail "go is not installed (scripts/setup.sh)"
fi

# --- 5. Node: npm pack, install the tarball into a fresh project ------------------
if command -v npm >/dev/null; then
  step "Node: npm pack; npm install <tarball> in a fresh project; no HOOKLINE_LIB"
  mkdir -p "$work/npm" "$work/node"
  (cd bindings/node && npm pack --silent --pack-destination "$work/npm" >"$work/npm/name") || fail "npm pack failed"
  tarball="$work/npm/$(tail -n 1 "$work/npm/name")"
  [ -f "$tarball" ] || fail "npm pack produced no tarball"
  tar -tzf "$tarball" >"$work/npm/list"
  for f in package/package.json package/LICENSE-MIT package/LICENSE-APACHE package/index.js \
    "package/prebuilds/$(node -p 'process.platform + "-" + process.arch')/libhookline.so"; do
    grep -qx "$f" "$work/npm/list" || fail "the npm tarball lacks $f"
  done
  if grep -q '^package/test/' "$work/npm/list"; then fail "the npm tarball contains the tests"; fi
  printf '{ "name": "hostapp", "version": "1.0.0", "private": true }\n' >"$work/node/package.json"
  cat >"$work/node/app.js" <<'EOF'
'use strict';
const hookline = require('hookline');
const path = require('node:path');
if (!hookline.libraryPath.startsWith(path.join(__dirname, 'node_modules', 'hookline', 'prebuilds'))) {
  throw new Error(`loaded ${hookline.libraryPath}, not the library the package carries`);
}
const engine = new hookline.Engine({
  workspace: process.env.APP_WORKSPACE,
  sessionId: 'install-test-node',
  trustStore: path.join(process.env.APP_WORKSPACE, 'trust.json'),
  hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo no >&2; exit 2' }] }] },
});
(async () => {
  const out = engine.runSync('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'ls' } });
  await engine.close();
  if (out.decision !== 'deny') throw new Error(`decision ${out.decision}, want deny`);
  console.log(`hookline ${hookline.version()} ok (node)`);
})().catch((err) => {
  console.error(err);
  process.exit(1);
});
EOF
  (
    cd "$work/node"
    unset HOOKLINE_LIB
    npm install --no-audit --no-fund --prefer-offline --loglevel=error "$tarball" >"$work/npm/install.log" 2>&1 ||
      { cat "$work/npm/install.log"; fail "npm install <tarball> failed"; }
    [ -d node_modules/koffi ] || fail "npm install did not install koffi"
    [ ! -L node_modules/hookline ] || fail "node_modules/hookline is a symlink, not an installed package"
    node app.js || fail "the installed npm package failed"
  ) || exit 1
else
  fail "npm is not installed (scripts/setup.sh)"
fi

step "all installed files work outside the checkout"
