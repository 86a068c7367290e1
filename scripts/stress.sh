#!/usr/bin/env bash
# Run every concurrency test many times in a row with the machine loaded,
# and print one line per round plus the total as "N passed, M failed".
#
# A concurrency test is not done when it passed once: races show up under
# load, at a rate of a few per thousand runs. Each round runs the test while
# a second copy of the same test runs beside it to load the machine (that
# copy's result is not counted; it only competes for the cores).
#
# Suites (each STRESS_ROUNDS rounds unless said otherwise):
#   c       ctests test_engine_async (async runs, cancel, cancel racing with
#           completion, free with runs in flight, callbacks in flight),
#           test_engine_blocking_cancel (reserved blocking runs: cancel before,
#           during, racing with completion, free in flight),
#           test_engine_trace (trace handlers replaced while runs are in
#           flight, free with runs in flight), test_registry_threads
#           (runners + registrars), test_gate_pins (threads spawning pinned
#           hooks while the script changes), every test of
#           test_engine_handlers (host handlers replaced in flight, deferred
#           replies, timeouts, an http hook on loopback) and
#           test_claude_rules (Claude Code's Stop hooks, run concurrently)
#   c-asan  the same binaries built with AddressSanitizer/LSan/UBSan
#   rust    cargo tests for cancellation and close (tests/it/engine.rs), the
#           runner's cancel tests (tests/runner.rs: cancel racing with a spawn),
#           the script pins (tests/it/pins.rs: concurrent re-verification,
#           the re-check window, rapid same-size rewrites), the concurrent
#           Claude Code rules (tests/it/claude_rules.rs: Stop, the Stop block
#           cap, the SessionEnd budget), every handler test
#           (tests/it/handlers.rs: loopback HTTP servers, cancels, handlers
#           replaced in flight) and the tracing tests (tests/it/trace.rs)
#   go      go test -race -count=20 of the Go concurrency tests (one round)
#   node    the Node concurrency tests (abort, close in flight, many runs)
#   python  the Python concurrency tests (foreign-thread callbacks, task cancellation, close
#           with runs in flight, interpreter exit with runs in flight)
#
# Usage: scripts/stress.sh [suite ...]      (default: all suites)
#   STRESS_ROUNDS=N   rounds per suite (default 50)
# Not part of `make test` (it takes a while): `make stress`.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
rounds="${STRESS_ROUNDS:-50}"
suites=("$@")
[ ${#suites[@]} -gt 0 ] || suites=(c c-asan rust go node python)
logs="$root/build/stress"
mkdir -p "$logs"

passed=0
failed=0
failures=()

# round NAME CMD...: run CMD once while a second copy loads the machine.
round() {
  local name="$1"; shift
  local log="$logs/$name.log"
  "$@" >/dev/null 2>&1 &
  local load=$!
  if "$@" >"$log" 2>&1; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    failures+=("$name (log: build/stress/$name.log)")
    cp "$log" "$log.failed"
  fi
  wait "$load" 2>/dev/null
}

# repeat SUITE LABEL CMD...: STRESS_ROUNDS rounds, one summary line.
repeat() {
  local suite="$1" label="$2"; shift 2
  local before_p=$passed before_f=$failed start
  start=$(date +%s)
  for i in $(seq 1 "$rounds"); do
    round "$suite-$label-$i" "$@"
  done
  printf 'stress %-8s %-28s %3d passed, %d failed (%ds)\n' "$suite" "$label" $((passed - before_p)) \
    $((failed - before_f)) $(( $(date +%s) - start ))
}

# test_exe NAME: the executable of the integration test binary NAME
# (tests/it/ or tests/runner.rs; cargo also lists the `hookline` command it
# builds for the tests: not that one).
test_exe() {
  cargo test --release --test "$1" --no-run --message-format=json 2>"$logs/rust-build.log" |
    grep '"kind":\["test"\]' | grep "\"name\":\"$1\"" |
    sed -n 's/.*"executable":"\([^"]*\)".*/\1/p' | tail -1
}

# module_tests EXE MODULE [WORD...]: the exact names of the tests of MODULE
# (a module of tests/it/) in EXE, only those whose name has one of the WORDs
# when any are given (a libtest filter cannot say "this module and this word").
module_tests() {
  local exe="$1" module="$2"; shift 2
  local words
  words=$(IFS='|'; echo "${*:-.}")
  "$exe" --list 2>/dev/null | sed -n "s/^\($module::[A-Za-z0-9_:]*\): test$/\1/p" | grep -E "$words"
}

cargo build --release >"$logs/build.log" 2>&1 || { cat "$logs/build.log"; echo "stress: library build failed"; exit 2; }
"$root/scripts/install.sh" --uninstalled "$root/build/pkgconfig"   # the Go binding links through pkg-config
c_build="$root/build/ctests"
# The concurrency tests of those binaries (every test of test_registry_threads).
c_filter="${STRESS_C_FILTER:-cancel|free|thousand|concurrent|running_registering|inside|reenter|call_back|racing|runners|in_flight|linearizable}"
san_build="$root/build/ctests-sanitize"

for suite in "${suites[@]}"; do
  case "$suite" in
    c)
      { cmake -S ctests -B "$c_build" -DCMAKE_BUILD_TYPE=Debug >/dev/null && cmake --build "$c_build" -j2 >/dev/null; } ||
        { echo "stress: C test build failed"; exit 2; }
      for b in test_engine_async test_engine_blocking_cancel test_engine_trace test_registry_threads test_gate_pins; do
        repeat c "$b" env HOOKLINE_TEST_ROOT="$root" HL_TEST_FILTER="$c_filter" "$c_build/$b"
      done
      repeat c test_claude_rules env HOOKLINE_TEST_ROOT="$root" HL_TEST_FILTER="stop" "$c_build/test_claude_rules"
      repeat c test_engine_handlers env HOOKLINE_TEST_ROOT="$root" "$c_build/test_engine_handlers"
      ;;
    c-asan)
      HOOKLINE_SKIP_BUILD=1 scripts/sanitize-ctests.sh -R '^test_common$' >"$logs/asan-build.log" 2>&1 ||
        { cat "$logs/asan-build.log"; echo "stress: sanitizer build failed"; exit 2; }
      for b in test_engine_async test_engine_blocking_cancel test_engine_trace test_registry_threads test_gate_pins test_engine_handlers; do
        filter="$c_filter"
        [ "$b" = test_engine_handlers ] && filter=""
        repeat c-asan "$b" env HOOKLINE_TEST_ROOT="$root" HL_TEST_FILTER="$filter" \
          ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:halt_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1" \
          UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1" "$san_build/$b"
      done
      ;;
    rust)
      # The test binary itself (two `cargo test` at once would queue on cargo's lock).
      exe=$(test_exe runner)
      [ -x "$exe" ] || { cat "$logs/rust-build.log"; echo "stress: Rust test build failed"; exit 2; }
      repeat rust runner-cancel "$exe" -q cancel
      exe=$(test_exe it)
      [ -x "$exe" ] || { cat "$logs/rust-build.log"; echo "stress: Rust test build failed"; exit 2; }
      # Each suite: the module's tests by their exact names (none found is a failure, not a pass).
      for group in "engine" "claude_rules stop session_end" "pins" "handlers" "trace"; do
        # shellcheck disable=SC2086 # the module, then the words
        set -- $group
        names=$(module_tests "$exe" "$@")
        [ -n "$names" ] || { echo "stress: no tests found in tests/it/$1.rs"; exit 2; }
        # shellcheck disable=SC2086 # one argument per test name
        repeat rust "$(echo "$group" | tr ' _' '--' | cut -d- -f1-3)" "$exe" -q --exact $names
      done
      ;;
    go)
      # One round of -count=20 (20 runs of each test) under the race detector.
      saved=$rounds
      rounds=1
      repeat go concurrency env -C bindings/go PKG_CONFIG_PATH="$root/build/pkgconfig" \
        LD_LIBRARY_PATH="$root/target/release" go test -race -count=20 \
        -run 'Concurrent|Cancel|Close|Context|Parallel|Racing|Reenter|Inside|Handler' ./...
      repeat go otel-concurrency env -C bindings/go/otelhookline PKG_CONFIG_PATH="$root/build/pkgconfig" \
        LD_LIBRARY_PATH="$root/target/release" go test -race -count=20 -run 'Concurrent' ./...
      rounds=$saved
      ;;
    python)
      "$root/bindings/python/scripts/dev-env.sh" || { echo "stress: the Python tools could not be installed"; exit 2; }
      repeat python concurrency env -C bindings/python "$root/build/python/venv/bin/python" -m pytest -q \
        -p no:cacheprovider tests/test_concurrency.py
      ;;
    node)
      repeat node concurrency env -C bindings/node node --test \
        --test-name-pattern='abort|close|concurrent|racing|reenter|deadlock|in_flight|many|handler' test/
      ;;
    *)
      echo "stress: unknown suite '$suite' (c c-asan rust go node)"
      exit 2
      ;;
  esac
done

for f in "${failures[@]}"; do echo "stress: FAILED $f"; done
echo "stress: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
