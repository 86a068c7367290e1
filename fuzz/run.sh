#!/usr/bin/env bash
# Run the hookline fuzz targets one after another (one fuzzer at a time).
#
# Usage: fuzz/run.sh [seconds-per-target] [target ...]
#   Default: 60 seconds for every target declared as a [[bin]] in
#   fuzz/Cargo.toml (targets added there later run without changes here).
#
# Installs what it needs when missing: the nightly toolchain (minimal
# profile) and cargo-fuzz $CARGO_FUZZ_VERSION (from crates.io, --locked).
#
# Fails (exit 1) when there is no target, when a target cannot be built,
# when a named target does not exist, when a target did not run (no
# executions reported), and when any target finds a crash, a leak, a
# timeout or an oracle violation. A run that fuzzed nothing never passes.
#
# The committed seeds (fuzz/corpus/<target>) are read but never written:
# new inputs go to fuzz/target/work-corpus/<target> (gitignored), crashes
# to fuzz/artifacts/<target>, and each run's log to
# fuzz/target/logs/<target>.log. FUZZ_TARGET_DIR, when set, is the cargo
# target directory of the build (the script's own test shares one).
# FUZZ_BUILD is the build mode: -O (default: optimised, for long runs) or
# --dev (unoptimised, with debug assertions: builds faster; make fuzz-smoke).
set -euo pipefail
CARGO_FUZZ_VERSION=0.13.1
cd "$(dirname "$0")"
die() { echo "fuzz: $*" >&2; exit 1; }
secs="${1:-60}"
[ $# -gt 0 ] && shift
case "$secs" in '' | *[!0-9]* | 0) die "seconds per target must be a positive number, not '$secs'" ;; esac

# --- Tools.
if ! cargo +nightly --version >/dev/null 2>&1; then
  command -v rustup >/dev/null || die "a nightly Rust toolchain is required and there is no rustup to install it"
  echo "fuzz: installing the nightly toolchain" >&2
  rustup toolchain install nightly --profile minimal >&2 || die "rustup toolchain install nightly failed"
fi
if [ "$(cargo fuzz --version 2>/dev/null | awk '{print $2}')" != "$CARGO_FUZZ_VERSION" ]; then
  echo "fuzz: installing cargo-fuzz $CARGO_FUZZ_VERSION" >&2
  cargo install cargo-fuzz --version "=$CARGO_FUZZ_VERSION" --locked >&2 || die "cargo install cargo-fuzz failed"
fi

# --- Targets: every [[bin]] of Cargo.toml.
mapfile -t declared < <(awk '
  /^\[\[bin\]\]/ { bin = 1; next }
  /^\[/ { bin = 0 }
  bin && /^name *=/ { sub(/^name *= *"/, ""); sub(/".*/, ""); print }
' Cargo.toml)
[ ${#declared[@]} -gt 0 ] || die "no fuzz targets declared in fuzz/Cargo.toml"
if [ $# -gt 0 ]; then
  for t in "$@"; do
    printf '%s\n' "${declared[@]}" | grep -qxF -- "$t" || die "no fuzz target '$t' (declared: ${declared[*]})"
  done
  targets=("$@")
else
  targets=("${declared[@]}")
fi

build="${FUZZ_BUILD:--O}"
case "$build" in -O | --dev) ;; *) die "FUZZ_BUILD must be -O or --dev, not '$build'" ;; esac
target_dir=()
[ -n "${FUZZ_TARGET_DIR:-}" ] && target_dir=(--target-dir "$FUZZ_TARGET_DIR")
echo "== building ${#targets[@]} targets"
for t in "${targets[@]}"; do
  nice -n 19 cargo +nightly fuzz build "$build" "${target_dir[@]}" "$t" >&2 || die "target $t could not be built"
done

mkdir -p target/logs
failed=()
ran=0
for t in "${targets[@]}"; do
  mkdir -p "target/work-corpus/$t" "corpus/$t"
  log="target/logs/$t.log"
  echo "== $t (${secs}s)"
  if nice -n 19 cargo +nightly fuzz run "$build" "${target_dir[@]}" "$t" "target/work-corpus/$t" "corpus/$t" -- \
      -max_total_time="$secs" -rss_limit_mb=2048 -timeout=30 -print_final_stats=1 >"$log" 2>&1; then
    status=ok
  else
    status=FAILED
  fi
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  if [ "$status" = ok ] && [ "${execs:-0}" -eq 0 ]; then
    status="FAILED (did not run)"
  fi
  if [ "$status" = ok ]; then ran=$((ran + 1)); else failed+=("$t"); fi
  cov=$(grep -E '^#[0-9]+' "$log" | tail -1 | grep -oE 'cov: [0-9]+ ft: [0-9]+ corp: [0-9]+/[0-9a-zA-Z]+' || true)
  echo "$t: $status, ${execs:-?} executions, ${cov:-no stats} (log: fuzz/$log)"
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: findings or failures in ${failed[*]} (see fuzz/artifacts/ and the logs)"
  exit 1
fi
[ "$ran" -gt 0 ] || die "no target ran"
echo "fuzz: $ran targets, no findings"
