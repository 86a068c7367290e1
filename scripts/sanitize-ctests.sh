#!/usr/bin/env bash
# Build the C conformance tests with AddressSanitizer (LeakSanitizer
# included) and UndefinedBehaviorSanitizer, and run them under ctest.
# Fails on any invalid access, undefined behaviour, or leak (LSan reports
# only memory no pointer reaches: definite leaks).
#
# The Rust library itself is not instrumented. ASan on the C side still
# catches the host touching memory the library handed out or freed (use of
# an hl_string after hl_string_free, a double free, a buffer overrun on a
# returned string) and, through LSan, every hl_string result or handle the
# library allocated and nobody freed: Rust allocates with the system
# malloc, which ASan intercepts.
#
# Usage: scripts/sanitize-ctests.sh [ctest args ...]   e.g. -R test_registry
#   HOOKLINE_SKIP_BUILD=1      do not run `cargo build --release` first
#   HOOKLINE_SANITIZE=...      sanitizer list (default address,undefined)
#   HOOKLINE_SANITIZE_BUILD    build directory (default build/ctests-sanitize)
#   CARGO_TARGET_DIR           where cargo put the library (default target)
#   CC                         C compiler (default cc; gcc needs libasan and
#                              libubsan: apt-get install -y libasan8 libubsan1)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
sanitizers="${HOOKLINE_SANITIZE:-address,undefined}"
build="${HOOKLINE_SANITIZE_BUILD:-$root/build/ctests-sanitize}"
target_dir="${CARGO_TARGET_DIR:-$root/target}"
case "$target_dir" in /*) ;; *) target_dir="$root/$target_dir" ;; esac
cc="${CC:-cc}"
start=$(date +%s)

# The compiler must have the sanitizer runtimes, else say how to get them.
probe="$(mktemp -d)"
trap 'rm -rf "$probe"' EXIT
echo 'int main(void) { return 0; }' >"$probe/p.c"
if ! "$cc" -fsanitize="$sanitizers" "$probe/p.c" -o "$probe/p" 2>"$probe/err" || ! "$probe/p"; then
  cat "$probe/err" >&2
  echo "sanitize: $cc cannot build with -fsanitize=$sanitizers (install the runtimes: apt-get install -y libasan8 libubsan1, or use CC=clang)" >&2
  exit 2
fi

if [ "${HOOKLINE_SKIP_BUILD:-0}" != 1 ]; then
  cargo build --release
fi
[ -e "$target_dir/release/libhookline.so" ] || { echo "sanitize: no $target_dir/release/libhookline.so (build the library first)" >&2; exit 2; }

cmake -S ctests -B "$build" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_COMPILER="$cc" \
  -DHOOKLINE_SANITIZE="$sanitizers" -DHOOKLINE_LIB_DIR="$target_dir/release" \
  -DCMAKE_C_FLAGS="-fno-sanitize-recover=all" >/dev/null
cmake --build "$build" -j2

# abort_on_error: a report fails the test; detect_leaks: LSan at exit.
# halt_on_error + no recovery: the first undefined behaviour fails the test.
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:halt_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
export LSAN_OPTIONS="report_objects=1${LSAN_OPTIONS:+:$LSAN_OPTIONS}"

status=0
(cd "$build" && ctest --output-on-failure -j2 "$@") || status=$?
elapsed=$(( $(date +%s) - start ))
if [ "$status" -ne 0 ]; then
  echo "sanitize: ctest under -fsanitize=$sanitizers FAILED after ${elapsed}s"
  exit "$status"
fi
echo "sanitize: every C test clean under -fsanitize=$sanitizers (no invalid access, no undefined behaviour, no leak) in ${elapsed}s"
