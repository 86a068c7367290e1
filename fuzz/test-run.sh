#!/usr/bin/env bash
# Test of fuzz/run.sh itself: it must fail when it fuzzed nothing or found
# something. In a copy of the fuzz project (sharing fuzz/target, so the
# library is built once) it plants
#   1. a target that crashes on its seed    -> run.sh fails, names it, keeps the crash
#   2. a target that does not compile       -> run.sh fails: "could not be built"
#   3. a Cargo.toml without any target      -> run.sh fails: "no fuzz targets"
#   4. an unknown target name               -> run.sh fails
# and checks that a healthy target passes.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
export FUZZ_TARGET_DIR="$here/target"
fail() { echo "test-run: FAIL: $*" >&2; exit 1; }

copy() {
  rm -rf "$tmp/fuzz"
  mkdir -p "$tmp/fuzz"
  cp -r "$here/Cargo.toml" "$here/Cargo.lock" "$here/run.sh" "$here/src" "$here/fuzz_targets" "$tmp/fuzz/"
  mkdir -p "$tmp/fuzz/corpus" "$tmp/fuzz/examples" "$tmp/src"
  # cargo-fuzz looks for the project the fuzz directory belongs to.
  printf '[package]\nname = "stub"\nversion = "0.0.0"\nedition = "2021"\n' > "$tmp/Cargo.toml"
  : > "$tmp/src/lib.rs"
  cp "$here/examples/"*.rs "$tmp/fuzz/examples/"
  sed -i "s|^hookline = { path = \"..\" }|hookline = { path = \"$root\" }|" "$tmp/fuzz/Cargo.toml"
}
plant() { # name, body of fuzz_target!
  cat > "$tmp/fuzz/fuzz_targets/$1.rs" <<RS
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| { $2 });
RS
  printf '\n[[bin]]\nname = "%s"\npath = "fuzz_targets/%s.rs"\ntest = false\ndoc = false\nbench = false\n' "$1" "$1" >> "$tmp/fuzz/Cargo.toml"
}
expect_failure() { # what, needle, args...
  local what="$1" needle="$2"
  shift 2
  if "$tmp/fuzz/run.sh" "$@" >"$tmp/out" 2>&1; then
    cat "$tmp/out" >&2
    fail "run.sh passed with $what"
  fi
  grep -qF -- "$needle" "$tmp/out" || { cat "$tmp/out" >&2; fail "run.sh failed with $what but did not say '$needle'"; }
  echo "test-run: ok: $what fails ($needle)"
}

# 1. A planted crash.
copy
plant planted_crash 'if data.first() == Some(&b'"'"'!'"'"') { panic!("planted crash") }'
mkdir -p "$tmp/fuzz/corpus/planted_crash"
printf '!' > "$tmp/fuzz/corpus/planted_crash/seed"
plant healthy 'let _ = data.len();'
expect_failure "a planted crash" "planted_crash: FAILED" 2 planted_crash
ls "$tmp/fuzz/artifacts/planted_crash/"crash-* >/dev/null 2>&1 || fail "the crash input was not kept"
"$tmp/fuzz/run.sh" 2 healthy >"$tmp/out" 2>&1 || { cat "$tmp/out" >&2; fail "a healthy target failed"; }
grep -q "healthy: ok" "$tmp/out" || fail "the healthy target did not report ok"
echo "test-run: ok: a healthy target passes"

# 2. A target that does not build.
copy
plant broken 'let _x: u32 = "not a number";'
expect_failure "a target that does not build" "could not be built" 2 broken

# 3. No targets at all.
copy
awk '/^\[\[bin\]\]/ { skip = 1; next } /^\[/ { skip = 0 } !skip' "$here/Cargo.toml" > "$tmp/fuzz/Cargo.toml"
sed -i "s|^hookline = { path = \"..\" }|hookline = { path = \"$root\" }|" "$tmp/fuzz/Cargo.toml"
expect_failure "no targets" "no fuzz targets"

# 4. An unknown target.
copy
expect_failure "an unknown target" "no fuzz target 'nonexistent'" 2 nonexistent
echo "test-run: all checks passed"
