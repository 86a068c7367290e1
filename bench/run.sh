#!/usr/bin/env bash
# hookline benchmarks (issue #7). Builds the drivers, runs every scenario once on this machine,
# and prints medians, p99s and the tracked ratios as Markdown (also saved to bench/build/report.md).
#
#   bench/run.sh            full run (a few minutes; expects `cargo build --release` done)
#   HLBENCH_QUICK=1 bench/run.sh   smoke run with small iteration counts
#
# Iteration counts (defaults in parentheses; HLBENCH_QUICK lowers them):
#   HLBENCH_NOMATCH_N (200000)  HLBENCH_REGISTRY_N (100000)
#   HLBENCH_SPAWN_N (2000)  HLBENCH_GO_N (1000)  HLBENCH_NODE_N (1000)  HLBENCH_PYTHON_N (1000)
#   HLBENCH_PARALLEL_N (10)
#   HLBENCH_THROUGHPUT_MS (4000)  HLBENCH_MEM_REGISTRY_N (100000)  HLBENCH_MEM_COMMAND_N (10000)
#   HLBENCH_HTTP_N (20000)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
build=$here/build
libdir=$root/target/release
mkdir -p "$build"

if [ ! -f "$libdir/libhookline.so" ]; then
  echo "bench: $libdir/libhookline.so is missing: run 'cargo build --release' (or 'make lib') first" >&2
  exit 1
fi

if [ -n "${HLBENCH_QUICK:-}" ]; then
  : "${HLBENCH_NOMATCH_N:=20000}" "${HLBENCH_REGISTRY_N:=20000}" "${HLBENCH_SPAWN_N:=100}" \
    "${HLBENCH_GO_N:=100}" "${HLBENCH_NODE_N:=100}" "${HLBENCH_PYTHON_N:=100}" "${HLBENCH_PARALLEL_N:=3}" \
    "${HLBENCH_THROUGHPUT_MS:=1000}" "${HLBENCH_MEM_REGISTRY_N:=10000}" "${HLBENCH_MEM_COMMAND_N:=300}" \
    "${HLBENCH_HTTP_N:=2000}"
fi
export HLBENCH_NOMATCH_N="${HLBENCH_NOMATCH_N:-200000}"
export HLBENCH_REGISTRY_N="${HLBENCH_REGISTRY_N:-100000}"
export HLBENCH_SPAWN_N="${HLBENCH_SPAWN_N:-2000}"
export HLBENCH_PARALLEL_N="${HLBENCH_PARALLEL_N:-10}"
export HLBENCH_THROUGHPUT_MS="${HLBENCH_THROUGHPUT_MS:-4000}"
export HLBENCH_MEM_REGISTRY_N="${HLBENCH_MEM_REGISTRY_N:-100000}"
export HLBENCH_MEM_COMMAND_N="${HLBENCH_MEM_COMMAND_N:-10000}"
export HLBENCH_HTTP_N="${HLBENCH_HTTP_N:-20000}"
go_n="${HLBENCH_GO_N:-1000}"
node_n="${HLBENCH_NODE_N:-1000}"
python_n="${HLBENCH_PYTHON_N:-1000}"
# Logging stays off: the numbers are for the default, silent library.
unset HOOKLINE_LOG

step() { printf '== %s\n' "$*" >&2; }

# ------------------------------------------------------------------ build the drivers
step "building drivers"
${CC:-cc} -O2 -g -Wall -Wextra -Werror -I"$root/include" "$here/c/hlbench.c" \
  -L"$libdir" -lhookline -Wl,-rpath,"$libdir" -lpthread -ldl -o "$build/hlbench"
(cd "$here/floor" && CARGO_TARGET_DIR="$build/floor-target" cargo build --release --quiet)
export HLBENCH_FLOOR_LIB="$build/floor-target/release/libhlbench_floor.so"
have_go=; have_node=; have_python=
if command -v go >/dev/null; then
  # The Go binding links libhookline through pkg-config: point it at this
  # checkout's build (as `make test-go` does), and the driver at its library.
  "$root/scripts/install.sh" --uninstalled "$root/build/pkgconfig" >/dev/null
  export PKG_CONFIG_PATH="$root/build/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
  export LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  (cd "$here/go" && go build -o "$build/hlbench-go" .) && have_go=1
else
  echo "bench: go not found, skipping the Go driver" >&2
fi
if command -v node >/dev/null && [ -d "$root/bindings/node/node_modules/koffi" ]; then
  have_node=1
else
  echo "bench: node or bindings/node/node_modules missing (npm ci in bindings/node), skipping the Node driver" >&2
fi

# The Python test environment (make python-env) has the Antigravity SDK the driver compares with;
# without it the plain interpreter runs the binding from the checkout (the SDK rows are skipped).
python=python3
if [ -x "$root/build/python/venv/bin/python" ]; then python="$root/build/python/venv/bin/python"; fi
if command -v "$python" >/dev/null && "$python" -c 'import sys; sys.exit(sys.version_info < (3, 9))'; then
  have_python=1   # the binding has no dependency: the interpreter runs it from the checkout
else
  echo "bench: python3 >= 3.9 not found, skipping the Python driver" >&2
fi

# ------------------------------------------------------------------ run
lib_id() { sha256sum "$libdir/libhookline.so" | cut -c1-12; }
lib_before=$(lib_id)
results="$build/results-$(date -u +%Y%m%dT%H%M%SZ).jsonl"
: >"$results"
run() { "$@" | tee -a "$results" >&2; }
start=$(date +%s)
load_before=$(cut -d' ' -f1-3 /proc/loadavg)

step "1. no hook matches"
run "$build/hlbench" nomatch
step "2. registry vs serde_json floor"
run "$build/hlbench" registry
step "3. one command hook vs posix_spawn floor"
run "$build/hlbench" spawn
"$build/hlbench" payload "$build/payload.json"
if [ -n "$have_go" ]; then
  step "4. Go: os/exec vs hookline"
  run "$build/hlbench-go" -payload "$build/payload.json" -n "$go_n"
fi
if [ -n "$have_node" ]; then
  step "4. Node: child_process.spawn vs hookline"
  run node "$here/node/bench.js" "$build/payload.json" "$node_n"
fi
if [ -n "$have_python" ]; then
  step "4. Python: subprocess.run vs hookline"
  run env PYTHONPATH="$root/bindings/python/src" "$python" "$here/python/bench.py" "$build/payload.json" "$python_n"
fi
step "5. concurrency"
run "$build/hlbench" parallel
run "$build/hlbench" throughput
step "6. memory"
run "$build/hlbench" memory
step "6. handler types: http, prompt"
run "$build/hlbench" handlers
elapsed=$(( $(date +%s) - start ))
load_after=$(cut -d' ' -f1-3 /proc/loadavg)
lib_after=$(lib_id)
lib_note="libhookline.so sha256 $lib_before"
if [ "$lib_before" != "$lib_after" ]; then
  lib_note="WARNING: libhookline.so changed during the run ($lib_before -> $lib_after); the numbers mix two builds"
  echo "bench: $lib_note" >&2
fi

# ------------------------------------------------------------------ report
cpu=$(grep -m1 '^model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
{
  echo "### Machine"
  echo
  echo "- $(nproc) CPUs ($(nproc --all) online), ${cpu:-unknown CPU}, $(awk '/MemTotal/ {printf "%.1f GiB RAM", $2/1048576}' /proc/meminfo)"
  echo "- kernel $(uname -sr), $(ldd --version 2>/dev/null | head -1 | sed 's/^ldd //')"
  echo "- $(rustc --version), $(command -v go >/dev/null && go version | cut -d' ' -f3,4), node $(command -v node >/dev/null && node --version), $(command -v python3 >/dev/null && python3 --version), $(${CC:-cc} --version | head -1)"
  echo "- library: target/release/libhookline.so (release profile, $lib_note), built $(date -u -r "$libdir/libhookline.so" +%Y-%m-%dT%H:%MZ); work tree at $(cd "$root" && git rev-parse --short HEAD 2>/dev/null || echo '?')$(cd "$root" && git diff --quiet HEAD -- src Cargo.toml 2>/dev/null || echo ' with uncommitted changes under src/')"
  echo "- run: $(date -u +%Y-%m-%dT%H:%MZ), ${elapsed} s; load average before: $load_before, after: $load_after"
  echo
  node "$here/report.js" "$results"
} >"$build/report.md"
cat "$build/report.md"
echo >&2
echo "bench: raw results in ${results#"$root"/}, report in ${build#"$root"/}/report.md" >&2
