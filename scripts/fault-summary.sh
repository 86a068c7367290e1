#!/usr/bin/env bash
# Run the fault suite and the bad-input suite and print their summaries,
# computed from the tests' real results:
#
#   faults: N tried, N survived
#   bad inputs: N tried, 0 crashes
#
# Faults (docs/hardening.md): each row below names a fault and
# the tests that inflict it, in the Rust runner tests (tests/runner.rs,
# `rust:<test>`) and the C tests (`c:<ctest binary>:<test>`). A fault test
# "survived" when it ran and passed; a listed test that did not run (e.g.
# renamed) counts as tried and not survived, so the index cannot rot
# silently.
#
# Bad inputs: every C test whose source prints "bad inputs: N tried, ..."
# is run; the N are summed. A binary that dies (signal) or ends without its
# line counts as a crash; failed checks are reported separately.
#
# Usage: scripts/fault-summary.sh
#   HOOKLINE_FAULT_LOGS=DIR report from the runs `make test` already made
#                           (DIR/rust.log: the `cargo test` output; the C
#                           results from ctest's Testing/Temporary/LastTest.log
#                           in the C build directory) instead of running the
#                           tests again
#   HOOKLINE_SKIP_BUILD=1   reuse the library and the C tests already built
#   HOOKLINE_CTEST_BUILD    C test build directory (default build/ctests)
#   CARGO_TARGET_DIR        cargo's target directory (default target)
# Exits non-zero when a fault was not survived, a bad input crashed, or a
# bad-input check failed.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
build="${HOOKLINE_CTEST_BUILD:-$root/build/ctests}"
target_dir="${CARGO_TARGET_DIR:-$root/target}"
case "$target_dir" in /*) ;; *) target_dir="$root/$target_dir" ;; esac

# fault id | what the hook does | tests
FAULTS=(
  "hang|a hook that never exits|rust:timeout_kills_a_hook_that_sleeps_forever c:test_engine_faults:hook_that_sleeps_forever_is_killed_at_timeout c:test_engine_faults:concurrent_hooks_time_out_together_not_one_after_another"
  "grandchild|a hook whose grandchild keeps the pipes open|rust:timeout_kills_grandchild_that_holds_the_pipes rust:timeout_kills_every_level_of_the_process_group rust:background_process_left_behind_neither_delays_return_nor_is_killed c:test_engine_faults:grandchild_holding_stdout_is_killed_and_run_returns c:test_engine_faults:grandchild_in_another_session_holding_pipes_does_not_block_the_run c:test_engine_faults:background_process_is_not_waited_for_nor_killed"
  "flood|a hook that floods stdout (1 GiB) or stderr|rust:gigabyte_of_output_keeps_memory_bounded rust:output_beyond_max_output_bytes_is_drained_and_dropped c:test_engine_faults:one_gib_of_stdout_is_capped_with_bounded_memory c:test_engine_faults:stderr_flood_is_capped"
  "unread-payload|a hook that never reads its 10 MiB payload (or closes stdin)|rust:hook_that_never_reads_a_10_mib_payload_exits_normally rust:hook_that_closes_stdin_midway_is_not_an_error rust:writing_to_a_hook_that_closed_stdin_never_raises_sigpipe c:test_engine_faults:hook_that_never_reads_a_10_mib_payload_is_fine c:test_engine_sigpipe:default_sigpipe_host_survives_hooks_that_do_not_read_a_10_mib_payload c:test_engine_sigpipe:default_sigpipe_host_survives_unread_payloads_from_many_threads"
  "signal|a hook killed by a signal|rust:killed_by_signal_reports_the_signal_and_no_exit_code c:test_engine_faults:hooks_killed_by_signals_leave_no_zombie"
  "invalid-utf8|a hook that prints invalid UTF-8|rust:invalid_utf8_output_is_returned_as_raw_bytes c:test_engine_faults:invalid_utf8_output_is_decoded_lossily_into_valid_json"
  "spawn-failure|a hook that cannot be started (workspace gone, E2BIG)|rust:spawn_failure_is_an_error_not_a_panic c:test_engine_faults:hook_that_cannot_be_started_gives_an_error_message"
  "leaks|repeated faulty runs (descriptors, zombies)|rust:no_descriptor_leak_across_200_runs_including_timeouts c:test_engine_faults:faulty_runs_leak_no_file_descriptors"
  "host-sigchld|a host that ignores or reaps SIGCHLD itself|rust:host_ignoring_sigchld_still_gets_prompt_results c:test_engine_sigpipe:pre_tool_use_exit_2_denies_when_the_host_ignores_sigchld c:test_engine_sigpipe:pre_tool_use_exit_2_denies_when_the_host_reaps_children_in_a_sigchld_handler"
)

logs="$(mktemp -d)"
trap 'rm -rf "$logs"' EXIT

from_logs="${HOOKLINE_FAULT_LOGS:-}"
ctest_log="$build/Testing/Temporary/LastTest.log"
if [ -n "$from_logs" ]; then
  for f in "$from_logs/rust.log" "$ctest_log"; do
    [ -f "$f" ] || { echo "fault-summary: $f is missing (run the Rust and C suites first, or unset HOOKLINE_FAULT_LOGS)"; exit 2; }
  done
  # One file per C test binary with its output, and its verdict, from the log.
  awk -v dir="$logs" '
    /^[0-9]+\/[0-9]+ Testing: / { b = $3; out = dir "/" b ".log.out"; printf "" > out; next }
    b != "" && /^Test Passed\.$/ { print "0" > (dir "/" b ".log.rc"); b = ""; next }
    b != "" && /^Test Failed\.$/ { print "1" > (dir "/" b ".log.rc"); b = ""; next }
    b != "" { print > out }
  ' "$ctest_log"
elif [ "${HOOKLINE_SKIP_BUILD:-0}" != 1 ]; then
  cargo build --release >"$logs/build.log" 2>&1 || { cat "$logs/build.log"; echo "fault-summary: library build failed"; exit 2; }
  { cmake -S ctests -B "$build" -DCMAKE_BUILD_TYPE=Debug -DHOOKLINE_LIB_DIR="$target_dir/release" >/dev/null &&
    cmake --build "$build" -j2; } >"$logs/cbuild.log" 2>&1 || { cat "$logs/cbuild.log"; echo "fault-summary: C test build failed"; exit 2; }
fi

# --- Rust fault tests: one cargo invocation with every listed name. ---
rust_tests=()
c_bins=()
for row in "${FAULTS[@]}"; do
  for t in ${row##*|}; do
    case "$t" in
      rust:*) rust_tests+=("${t#rust:}") ;;
      c:*) b="${t#c:}"; c_bins+=("${b%%:*}") ;;
    esac
  done
done
if [ -n "$from_logs" ]; then
  # Only the runner test binary's section of the full `cargo test` output.
  awk '/^ *Running tests\/runner\.rs/ { on = 1; next } /^ *(Running|Doc-tests) / { on = 0 } on' "$from_logs/rust.log" >"$logs/rust.log"
else
  cargo test --release --test runner -- --exact "${rust_tests[@]}" >"$logs/rust.log" 2>&1
fi
# Results as "<name> ok|FAILED" lines.
sed -n 's/^test \([A-Za-z0-9_]*\) \.\.\. \(ok\|FAILED\)$/\1 \2/p' "$logs/rust.log" >"$logs/rust.results"

# --- C fault tests: run each binary once; the harness prints "ok <test>"
# or "not ok <test>" on stderr. ---
: >"$logs/c.results"
for b in $(printf '%s\n' "${c_bins[@]}" | sort -u); do
  if [ -n "$from_logs" ]; then
    [ -f "$logs/$b.log.out" ] && cp "$logs/$b.log.out" "$logs/$b.out"
    sed -n "s/^ok \([A-Za-z0-9_]*\)$/$b:\1 ok/p; s/^not ok \([A-Za-z0-9_]*\)$/$b:\1 FAILED/p" "$logs/$b.out" >>"$logs/c.results" 2>/dev/null
  elif [ -x "$build/$b" ]; then
    HOOKLINE_TEST_ROOT="$root" "$build/$b" >"$logs/$b.out" 2>&1
    sed -n "s/^ok \([A-Za-z0-9_]*\)$/$b:\1 ok/p; s/^not ok \([A-Za-z0-9_]*\)$/$b:\1 FAILED/p" "$logs/$b.out" >>"$logs/c.results"
  fi
done

result_of() { # kind name -> ok | FAILED | missing
  local file="$logs/$1.results" r
  r=$(awk -v n="$2" '$1 == n { print $2 }' "$file" | tail -1)
  echo "${r:-missing}"
}

tried=0
survived=0
failed_faults=()
printf '%-16s %-8s %s\n' "fault" "result" "tests (survived/tried)"
for row in "${FAULTS[@]}"; do
  id="${row%%|*}"
  rest="${row#*|}"
  what="${rest%%|*}"
  n=0
  ok=0
  bad=()
  for t in ${row##*|}; do
    case "$t" in
      rust:*) r=$(result_of rust "${t#rust:}") ;;
      c:*) r=$(result_of c "${t#c:}") ;;
    esac
    n=$((n + 1))
    if [ "$r" = ok ]; then ok=$((ok + 1)); else bad+=("$t ($r)"); fi
  done
  tried=$((tried + n))
  survived=$((survived + ok))
  if [ "$ok" -eq "$n" ]; then verdict=ok; else verdict=HURT; failed_faults+=("$id"); fi
  printf '%-16s %-8s %d/%d  %s\n' "$id" "$verdict" "$ok" "$n" "$what"
  for b in "${bad[@]}"; do printf '    not survived: %s\n' "$b"; done
done
echo "faults: $tried tried, $survived survived"

# --- Bad inputs. ---
bi_tried=0
bi_crashes=0
bi_failed=()
for src in ctests/test_*.c; do
  grep -q 'bad inputs:' "$src" || continue
  b="$(basename "$src" .c)"
  if [ -n "$from_logs" ]; then
    if [ -f "$logs/$b.log.out" ]; then
      cp "$logs/$b.log.out" "$logs/$b.bad.out"
      rc=$(cat "$logs/$b.log.rc" 2>/dev/null || echo 255)
    else
      echo "bad-input test $b did not run in the C suite"
      bi_crashes=$((bi_crashes + 1))
      continue
    fi
  elif [ ! -x "$build/$b" ]; then
    echo "bad-input test $b is not built"
    bi_crashes=$((bi_crashes + 1))
    continue
  else
    HOOKLINE_TEST_ROOT="$root" "$build/$b" >"$logs/$b.bad.out" 2>&1
    rc=$?
  fi
  line=$(sed -n 's/^bad inputs: \([0-9]*\) tried.*/\1/p' "$logs/$b.bad.out" | tail -1)
  if [ "$rc" -gt 128 ] || [ -z "$line" ]; then
    echo "bad-input test $b crashed (exit $rc)"
    bi_crashes=$((bi_crashes + 1))
  else
    bi_tried=$((bi_tried + line))
    [ "$rc" -ne 0 ] && bi_failed+=("$b")
    printf '%-28s %s bad inputs tried%s\n' "$b" "$line" "$([ "$rc" -ne 0 ] && echo ', some checks FAILED')"
  fi
done
echo "bad inputs: $bi_tried tried, $bi_crashes crashes"

status=0
if [ ${#failed_faults[@]} -gt 0 ]; then
  echo "fault-summary: not survived: ${failed_faults[*]} (logs: re-run the named tests)"
  status=1
fi
if [ "$bi_crashes" -gt 0 ] || [ ${#bi_failed[@]} -gt 0 ]; then
  echo "fault-summary: bad-input failures: crashes $bi_crashes, failed checks in: ${bi_failed[*]:-none}"
  status=1
fi
exit $status
