#!/usr/bin/env bash
# Run the hookline fuzz targets one after another (one fuzzer at a time).
#
# Usage: fuzz/run.sh [seconds-per-target] [target ...]
#   Default: 60 seconds for each target listed by `cargo fuzz list`.
#   Needs a nightly toolchain and cargo-fuzz (`cargo install cargo-fuzz`).
#
# The committed seeds (fuzz/corpus/<target>) are read but never written:
# new inputs go to fuzz/target/work-corpus/<target> (gitignored), crashes
# to fuzz/artifacts/<target>, and each run's log to
# fuzz/target/logs/<target>.log. The script fails when any target finds a
# crash, a leak or a timeout, and prints the executions of each target.
set -euo pipefail
cd "$(dirname "$0")"
secs="${1:-60}"
[ $# -gt 0 ] && shift
if [ $# -gt 0 ]; then
  targets=("$@")
else
  mapfile -t targets < <(cargo +nightly fuzz list)
fi
mkdir -p target/logs
failed=()
for t in "${targets[@]}"; do
  mkdir -p "target/work-corpus/$t"
  log="target/logs/$t.log"
  echo "== $t (${secs}s)"
  if nice -n 19 cargo +nightly fuzz run -O "$t" "target/work-corpus/$t" "corpus/$t" -- \
      -max_total_time="$secs" -rss_limit_mb=2048 -timeout=30 -print_final_stats=1 >"$log" 2>&1; then
    status=ok
  else
    status=FAILED
    failed+=("$t")
  fi
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  cov=$(grep -E '^#[0-9]+' "$log" | tail -1 | grep -oE 'cov: [0-9]+ ft: [0-9]+ corp: [0-9]+/[0-9a-zA-Z]+' || true)
  echo "$t: $status, ${execs:-?} executions, ${cov:-no stats} (log: fuzz/$log)"
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: findings in ${failed[*]} (see fuzz/artifacts/ and the logs)"
  exit 1
fi
echo "fuzz: ${#targets[@]} targets, no findings"
