#!/usr/bin/env bash
# make test-windows: cross-build hookline for x86_64-pc-windows-gnu (mingw-w64) and run, under
# Wine, the Rust tests that apply on Windows and a C host of the C ABI (ctests/windows/).
#
# Installs what it needs when missing: the rustup target, and with apt-get (Debian/Ubuntu, as
# root or through sudo) the mingw-w64 C compiler and Wine. The C programs go to build/windows/,
# cargo's output to target/x86_64-pc-windows-gnu/, the Wine prefix to target/wine-prefix/ (its
# drive Z: is a link to /: under target/, cargo and other tools that walk the checkout skip it).
#
# Wine 8 (Debian 12's) lacks bcryptprimitives.dll!ProcessPrng, which every program built by
# Rust 1.78 or later imports: the script builds a small stand-in (scripts/windows/processprng.c,
# over RtlGenRandom) into the prefix's system32. Wine 9 and later, and Windows, have their own.
#
# What Wine cannot check (PowerShell, Git Bash: Wine ships neither) is covered by unit tests of
# the command lines built for them; docs/runner.md says what is verified where.
#
# Environment: HOOKLINE_WINDOWS_SKIP_INSTALL=1 never installs (fails when something is missing).
set -euo pipefail
cd "$(dirname "$0")/.."

TARGET=x86_64-pc-windows-gnu
OUT=build/windows
TARGET_DIR=${CARGO_TARGET_DIR:-target}
CARGO=${CARGO:-cargo}
started=$(date +%s)
step() { echo "== test-windows: $* ($(($(date +%s) - started)) s)"; }

mkdir -p "$OUT"

# ---------------------------------------------------------------- tools
missing=()
command -v x86_64-w64-mingw32-gcc >/dev/null || missing+=(gcc-mingw-w64-x86-64)
command -v wine >/dev/null || missing+=(wine wine64)
if ((${#missing[@]})); then
    if [[ ${HOOKLINE_WINDOWS_SKIP_INSTALL:-} == 1 ]]; then
        echo "test-windows: missing ${missing[*]} (HOOKLINE_WINDOWS_SKIP_INSTALL=1: not installing)" >&2
        exit 1
    fi
    sudo=()
    [[ $(id -u) == 0 ]] || sudo=(sudo)
    step "installing ${missing[*]}"
    "${sudo[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
fi
if ! rustup target list --installed | grep -qx "$TARGET"; then
    step "adding the rust target $TARGET"
    rustup target add "$TARGET"
fi

# ---------------------------------------------------------------- Wine prefix
WINEPREFIX="$(realpath -m "$TARGET_DIR")/wine-prefix"
export WINEPREFIX WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml=" WINEARCH=win64
if [[ ! -f $WINEPREFIX/system.reg ]]; then
    step "creating the Wine prefix"
    wineboot --init >/dev/null 2>&1 || true
    wineserver -w
fi
system32="$WINEPREFIX/drive_c/windows/system32"
[[ -f $system32/kernel32.dll ]] || { echo "test-windows: the Wine prefix $WINEPREFIX has no system32" >&2; exit 1; }
wine_major=$(wine --version | sed -E 's/^wine-([0-9]+).*/\1/')
if ((wine_major < 9)); then
    step "building the ProcessPrng stand-in for Wine $wine_major"
    x86_64-w64-mingw32-gcc -O2 -s -shared -o "$system32/bcryptprimitives.dll" scripts/windows/processprng.c -ladvapi32
fi
# A Windows path (Wine's Z: drive is /) for what the Windows side is given.
winpath() { local p; p=$(realpath "$1"); echo "Z:${p//\//\\}"; }

# ---------------------------------------------------------------- build
step "clippy for $TARGET (warnings are errors)"
$CARGO clippy --release --target "$TARGET" --workspace --lib --bins --test windows_runner -- -D warnings
step "building the library, the CLI and the tests for $TARGET"
$CARGO build --release --target "$TARGET"
x86_64-w64-mingw32-gcc -O2 -Wall -Wextra -Werror -o "$OUT/hook.exe" ctests/windows/hook.c
x86_64-w64-mingw32-gcc -O2 -Wall -Wextra -Werror -std=c11 -Iinclude -o "$OUT/test_windows.exe" \
    ctests/windows/test_windows.c "$TARGET_DIR/$TARGET/release/libhookline.dll.a"
cp "$TARGET_DIR/$TARGET/release/hookline.dll" "$OUT/"

export HOOKLINE_TEST_HOOK_EXE
HOOKLINE_TEST_HOOK_EXE=$(winpath "$OUT/hook.exe")
export CARGO_TARGET_X86_64_PC_WINDOWS_GNU_RUNNER=wine

# ---------------------------------------------------------------- Rust tests
# The unit tests, less those of POSIX paths and /bin/sh command text (the approval gate's
# resolver, permission rules and settings-file locations use POSIX paths on every system so
# far; docs/runner.md lists them as not yet verified on Windows).
posix_only=(
    gate::resolve::tests::
    rule::tests::double_slash_is_absolute_and_slash_is_the_workspace_root
    rule::tests::read_dot_src_double_star_is_relative_to_the_workspace
    rule::tests::single_star_stays_within_one_path_segment
    dialect::gemini::tests::system_files_follow_gemini_s_variables
    dialect::tests::gemini_reads_no_workspace_settings_in_the_home_directory
    dialect::tests::settings_files_are_the_users_then_the_workspaces_per_dialect
    handler::command::tests::exec_form_resolves_names_on_path_and_paths_from_the_workspace
    engine::tests::a_run_executes_the_snapshot_it_validated_against_not_a_later_reload
)
skips=()
for t in "${posix_only[@]}"; do skips+=(--skip "$t"); done
step "unit tests under Wine"
$CARGO test --release --target "$TARGET" --lib -- "${skips[@]}"
# The runner one test at a time: the handle-leak test counts this process's handles.
step "runner tests under Wine"
$CARGO test --release --target "$TARGET" --test windows_runner -- --test-threads=1

# ---------------------------------------------------------------- C host
step "C host (mingw-w64) under Wine"
wine "$OUT/test_windows.exe" "$HOOKLINE_TEST_HOOK_EXE"
step "the CLI starts: $(wine "$TARGET_DIR/$TARGET/release/hookline.exe" --version | tr -d '\r')"

# ---------------------------------------------------------------- the release tarball (make dist)
# When build/dist holds the windows-x64 tarball (CI runs make test-dist first), the C host runs
# again, linked against the tarball's MSVC-style import library and loading its stripped DLL,
# and the tarball's hookline.exe starts.
tarball=$(ls build/dist/hookline-*-windows-x64.tar.gz 2>/dev/null | head -n 1 || true)
if [[ -n $tarball ]]; then
    step "the release tarball $(basename "$tarball") under Wine"
    rm -rf "$OUT/dist" && mkdir -p "$OUT/dist"
    tar -xzf "$tarball" -C "$OUT/dist"
    x=$(echo "$OUT"/dist/hookline-*-windows-x64)
    x86_64-w64-mingw32-gcc -O2 -Wall -Wextra -Werror -std=c11 -I"$x/include" -o "$x/bin/test_windows.exe" \
        ctests/windows/test_windows.c "$x/lib/hookline.lib"
    wine "$x/bin/test_windows.exe" "$HOOKLINE_TEST_HOOK_EXE"
    step "the tarball's command starts: $(wine "$x/bin/hookline.exe" --version | tr -d '\r')"
fi

wineserver -k || true
step "passed"
