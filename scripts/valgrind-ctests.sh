#!/usr/bin/env bash
# Run every C conformance test under valgrind (memcheck). Fails on any
# invalid access, use of uninitialised memory, or definite leak; "possibly
# lost" blocks (Rust std thread-locals, the process-wide runtime) do not fail.
#
# Usage: scripts/valgrind-ctests.sh [test_name ...]
#   Builds the library (release) and the ctests first unless
#   HOOKLINE_SKIP_BUILD=1; runs every built test_* executable, or only the
#   named ones. Logs go to build/valgrind/<test>.log.
#   HOOKLINE_CTEST_BUILD / HOOKLINE_VALGRIND_LOGS override the two directories.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
build="${HOOKLINE_CTEST_BUILD:-$root/build/ctests}"
logs="${HOOKLINE_VALGRIND_LOGS:-$root/build/valgrind}"

command -v valgrind >/dev/null || { echo "valgrind is not installed" >&2; exit 2; }

if [ "${HOOKLINE_SKIP_BUILD:-0}" != 1 ]; then
  cargo build --release
  cmake -S ctests -B "$build" -DCMAKE_BUILD_TYPE=Debug >/dev/null
  cmake --build "$build" -j2
fi

mkdir -p "$logs"

# After fork() the child cannot use the parent's runtime (its threads are
# gone): hookline deliberately leaks it there (docs/c-api.md §10), together with the
# start-up closures of threads that never run in the child. Those blocks are
# definitely lost only in forked children; nothing else is suppressed.
supp="$logs/hookline-fork.supp"
cat >"$supp" <<'SUPP'
{
   fork-child-keeps-the-parent-runtime-leaked
   Memcheck:Leak
   match-leak-kinds: definite
   ...
   fun:_ZN8hookline7runtime7runtime*
}
{
   fork-child-thread-start-closures-never-run
   Memcheck:Leak
   match-leak-kinds: definite
   ...
   fun:_ZN5tokio7runtime8blocking4pool7Spawner12spawn_thread*
}
{
   fork-child-thread-local-destructor-lists-of-parent-threads
   Memcheck:Leak
   match-leak-kinds: definite
   fun:calloc
   fun:__cxa_thread_atexit_impl
   ...
   fun:*tokio::runtime::blocking::pool*spawn_thread*
}
SUPP
if [ $# -gt 0 ]; then
  tests=("$@")
else
  tests=()
  for exe in "$build"/test_*; do
    [ -f "$exe" ] && [ -x "$exe" ] && tests+=("$(basename "$exe")")
  done
fi
[ ${#tests[@]} -gt 0 ] || { echo "no test executables in $build" >&2; exit 2; }

failed=()
for t in "${tests[@]}"; do
  exe="$build/$t"
  log="$logs/$t.log"
  printf '%-40s ' "$t"
  start=$(date +%s)
  # Tests that spawn hook processes: only the test process itself is checked
  # (--trace-children=no); the children are /bin/sh and friends.
  if HOOKLINE_TEST_ROOT="$root" valgrind \
      --tool=memcheck \
      --leak-check=full \
      --errors-for-leak-kinds=definite \
      --show-leak-kinds=definite \
      --error-exitcode=99 \
      --trace-children=no \
      --child-silent-after-fork=yes \
      --num-callers=40 \
      --max-threads=1000 \
      --suppressions="$supp" \
      --log-file="$log" \
      "$exe" >"$log.out" 2>&1; then
    echo "ok ($(( $(date +%s) - start ))s)"
  else
    rc=$?
    echo "FAILED (exit $rc, see $log and $log.out)"
    failed+=("$t")
  fi
done

if [ ${#failed[@]} -gt 0 ]; then
  echo "valgrind: ${#failed[@]} of ${#tests[@]} tests failed: ${failed[*]}"
  exit 1
fi
echo "valgrind: all ${#tests[@]} tests clean (no invalid access, no definite leak)"
