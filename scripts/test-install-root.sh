#!/usr/bin/env bash
# `make test-install-root`: `make install` the way `sudo make install` runs
# it, checked where it matters, in the real system paths:
#   - as root, with no Rust toolchain on PATH (sudo resets PATH; cargo and
#     rustc live in the user's ~/.cargo/bin), into the default PREFIX
#     /usr/local without DESTDIR: it installs what `make` built, without
#     building, and runs ldconfig, saying so;
#   - afterwards ldconfig's cache lists libhookline.so.SERIES, and a program
#     linked with `cc app.c $(pkg-config --cflags --libs hookline)` starts
#     with no LD_LIBRARY_PATH and no rpath (the README's C quickstart);
#   - the installed command runs;
#   - with nothing built, `make install` fails naming what to run.
# Nothing touches this machine: the test runs in a private mount namespace
# where /usr/local is an empty tmpfs and /etc an overlay whose writes
# (ldconfig's cache) are discarded. Needs root and unshare(1); elsewhere it
# says why it is skipped and exits 0.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
fail() { echo "test-install-root: FAIL: $*" >&2; exit 1; }
step() { echo "test-install-root: $*"; }

if [ "$(id -u)" != 0 ]; then
  step "skipped: needs root (it installs into /usr/local of a private mount namespace)"
  exit 0
fi
if ! command -v unshare >/dev/null || ! unshare --mount true 2>/dev/null; then
  step "skipped: cannot make a private mount namespace here (unshare --mount)"
  exit 0
fi
[ -f target/release/libhookline.so ] || fail "build first: make lib"

version="$(awk '/^\[/ { in_pkg = ($0 == "[package]") } in_pkg && /^version *=/ { print; exit }' Cargo.toml |
  sed -E 's/^version *= *"([^"]+)".*/\1/')"
major="${version%%.*}"
minor="$(echo "$version" | cut -d. -f2)"
if [ "$major" = 0 ]; then series="$major.$minor"; else series="$major"; fi

work="$(mktemp -d "${TMPDIR:-/tmp}/hookline-test-install-root.XXXXXX")"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/etc-upper" "$work/etc-work" "$work/app"
cp scripts/packaging/consumer.c "$work/app/app.c"

# PATH as sudo leaves it (Debian's secure_path), so no cargo or rustc.
root_path=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
if PATH="$root_path" command -v cargo >/dev/null || PATH="$root_path" command -v rustc >/dev/null; then
  fail "cargo or rustc is on root's system PATH ($root_path): this test needs a PATH without them"
fi

cat >"$work/inside.sh" <<'EOF'
set -euo pipefail
fail() { echo "test-install-root: FAIL: $*" >&2; exit 1; }
step() { echo "test-install-root: $*"; }
work="$1" root="$2" series="$3" version="$4"
mount -t tmpfs tmpfs /usr/local
mount -t overlay overlay -o "lowerdir=/etc,upperdir=$work/etc-upper,workdir=$work/etc-work" /etc
cd "$root"

step "make install as root, PATH without cargo or rustc, default PREFIX (/usr/local), no DESTDIR"
make --no-print-directory install >"$work/install.log" 2>&1 || { cat "$work/install.log"; fail "make install failed"; }
cat "$work/install.log"
if grep -Eq '(^|/)(cargo|rustc)( |$)|Compiling' "$work/install.log"; then fail "make install ran cargo"; fi
grep -q "install: running .*ldconfig: the runtime linker now finds libhookline.so.$series in /usr/local/lib" "$work/install.log" ||
  fail "make install did not say that it ran ldconfig"
ldconfig -p | grep -q "libhookline.so.$series .*/usr/local/lib/libhookline.so.$series" ||
  { ldconfig -p | grep hookline; fail "ldconfig's cache does not list /usr/local/lib/libhookline.so.$series"; }

step "cc app.c \$(pkg-config --cflags --libs hookline); ./app with no LD_LIBRARY_PATH"
export PKG_CONFIG_PATH=/usr/local/lib/pkgconfig
cc -Wall -Wextra -Werror -o "$work/app/app" "$work/app/app.c" $(pkg-config --cflags --libs hookline) ||
  fail "the program does not build against the installed library"
if readelf -d "$work/app/app" | grep -Eq 'R(UN)?PATH'; then fail "the program has an rpath: the test would prove nothing"; fi
mkdir -p "$work/ws"
(cd "$work/app" && env -u LD_LIBRARY_PATH APP_WORKSPACE="$work/ws" ./app) || fail "the program does not start without LD_LIBRARY_PATH"
/usr/local/bin/hookline check "$root/examples/demo/hooks.json" >/dev/null || fail "the installed hookline command does not run"
[ "$(/usr/local/bin/hookline --version 2>/dev/null | awk '{print $2}')" = "$version" ] ||
  fail "hookline --version does not say $version"
EOF
PATH="$root_path" unshare --mount --propagation private bash "$work/inside.sh" "$work" "$root" "$series" "$version" ||
  fail "the install as root failed (above)"

# With nothing built, `make install` says what to run (a copy of the checkout
# without target/).
step "make install with nothing built: a clear error"
mkdir -p "$work/empty"
git ls-files -z | xargs -0 cp --parents -t "$work/empty" 2>/dev/null || tar -c --exclude=./target --exclude=./build . | tar -x -C "$work/empty"
if (cd "$work/empty" && PATH="$root_path" make --no-print-directory install PREFIX="$work/never" >"$work/empty.log" 2>&1); then
  fail "make install succeeded with nothing built"
fi
grep -q "nothing built to install: .*run 'make' first" "$work/empty.log" ||
  { cat "$work/empty.log"; fail "make install with nothing built does not say to run 'make' first"; }
[ ! -e "$work/never" ] || fail "make install with nothing built created $work/never"
step "make install as root needs no Rust toolchain, runs ldconfig, and the installed library is found at run time"
