#!/usr/bin/env bash
# Install what `make dist` and `make test-dist` need on top of scripts/setup.sh,
# or stop at once with one line naming what is missing. Idempotent and quick
# when everything is present.
#
#   - the Rust standard libraries of the six release targets (rustup);
#   - zig and cargo-zigbuild, pinned, from PyPI into build/tools/zig (a
#     virtual environment of this checkout): they cross-link every target and
#     pin the oldest glibc the gnu builds need (2.17);
#   - npm 10.3 or newer (checked: make test-dist uses npm install --libc);
#   - Debian packages: llvm (llvm-strip, llvm-objdump, llvm-nm, llvm-readobj
#     for ELF and Mach-O), file, binutils (readelf), qemu-user-static and
#     libc6-arm64-cross (the arm64 build run under emulation), musl (the musl
#     build run here), gcc-mingw-w64-x86-64 (the windows-x64 build's linker,
#     and the C and Go programs test-dist builds against it).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"

ZIG_VERSION=0.17.0
ZIGBUILD_VERSION=0.24.0
TARGETS=(x86_64-unknown-linux-gnu aarch64-unknown-linux-gnu x86_64-unknown-linux-musl x86_64-apple-darwin aarch64-apple-darwin x86_64-pc-windows-gnu)

die() { echo "setup-dist: $*" >&2; exit 1; }

# --- npm >= 10.3: make test-dist has npm pick each platform's package with
# --os/--cpu (npm 10.1) and --libc (npm 10.3).
npm_v="$(npm --version 2>/dev/null || true)"
[ "$(printf '%s\n10.3.0\n' "${npm_v:-0}" | sort -V | head -n 1)" = 10.3.0 ] ||
  die "npm >= 10.3 is required (npm install --os/--cpu/--libc); found ${npm_v:-none} (npm install -g npm@10)"

# --- Rust targets.
command -v rustup >/dev/null || die "rustup is required to add the cross targets (${TARGETS[*]}); found none"
installed="$(rustup target list --installed)"
missing=()
for t in "${TARGETS[@]}"; do grep -qx "$t" <<<"$installed" || missing+=("$t"); done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "setup-dist: rustup target add ${missing[*]}" >&2
  rustup target add "${missing[@]}" >/dev/null || die "rustup target add ${missing[*]} failed"
fi

# --- Debian packages.
need_apt=()
command -v llvm-strip >/dev/null && command -v llvm-objdump >/dev/null && command -v llvm-nm >/dev/null || need_apt+=(llvm)
command -v file >/dev/null || need_apt+=(file)
command -v readelf >/dev/null || need_apt+=(binutils)
command -v qemu-aarch64-static >/dev/null || need_apt+=(qemu-user-static)
[ -e /usr/aarch64-linux-gnu/lib/ld-linux-aarch64.so.1 ] || need_apt+=(libc6-arm64-cross)
[ -e /lib/ld-musl-x86_64.so.1 ] || need_apt+=(musl)
command -v x86_64-w64-mingw32-gcc >/dev/null || need_apt+=(gcc-mingw-w64-x86-64)
command -v llvm-dlltool >/dev/null || need_apt+=(llvm)
command -v python3 >/dev/null || need_apt+=(python3)
python3 -c 'import venv, ensurepip' 2>/dev/null || need_apt+=(python3-venv)
if [ "${#need_apt[@]}" -gt 0 ]; then
  command -v apt-get >/dev/null || die "missing ${need_apt[*]}, and there is no apt-get here to install them"
  sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  echo "setup-dist: installing ${need_apt[*]}" >&2
  $sudo apt-get update -qq >/dev/null || die "apt-get update failed (needed to install ${need_apt[*]})"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need_apt[@]}" >/dev/null ||
    die "apt-get install ${need_apt[*]} failed"
fi

# --- zig and cargo-zigbuild (PyPI), in a virtual environment of this checkout.
venv="$root/build/tools/zig"
have_versions() {
  [ -x "$venv/bin/cargo-zigbuild" ] && [ -x "$venv/bin/zig" ] &&
    [ "$("$venv/bin/zig" version 2>/dev/null)" = "$ZIG_VERSION" ] &&
    [ "$("$venv/bin/cargo-zigbuild" --version 2>/dev/null | awk '{print $2}')" = "$ZIGBUILD_VERSION" ]
}
if ! have_versions; then
  echo "setup-dist: installing ziglang $ZIG_VERSION and cargo-zigbuild $ZIGBUILD_VERSION into build/tools/zig" >&2
  rm -rf "$venv"
  python3 -m venv "$venv" || die "python3 -m venv failed"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "ziglang==$ZIG_VERSION" "cargo-zigbuild==$ZIGBUILD_VERSION" ||
    die "pip install ziglang==$ZIG_VERSION cargo-zigbuild==$ZIGBUILD_VERSION failed"
  # The zig binary the wheel carries, on the venv's PATH (cargo-zigbuild runs `zig`).
  zig_bin="$("$venv/bin/python" -c 'import os, ziglang; print(os.path.join(os.path.dirname(ziglang.__file__), "zig"))')"
  [ -x "$zig_bin" ] || die "the ziglang wheel has no zig binary at $zig_bin"
  ln -sfn "$zig_bin" "$venv/bin/zig"
  have_versions || die "zig $ZIG_VERSION / cargo-zigbuild $ZIGBUILD_VERSION did not install as expected"
fi
