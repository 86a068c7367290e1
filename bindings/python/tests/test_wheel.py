"""What a user outside this checkout gets: the wheel installed with pip into a fresh virtual
environment, imported from another directory with no environment variable, and the sdist's
contents. `make test-python` builds both and names them in HOOKLINE_TEST_WHEEL and
HOOKLINE_TEST_SDIST; without them these tests are skipped."""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
import textwrap
import zipfile
from pathlib import Path

import pytest

WHEEL = os.environ.get("HOOKLINE_TEST_WHEEL")
SDIST = os.environ.get("HOOKLINE_TEST_SDIST")
CHECKOUT = Path(__file__).resolve().parents[3]

SCRIPT = textwrap.dedent(
    """
    import os, sys, sysconfig, tempfile
    import hookline
    from hookline import Engine, Hooks, HookResult, PreToolCallDecideContext

    site = sysconfig.get_paths()["platlib"]
    assert hookline.__file__.startswith(site), hookline.__file__
    assert hookline.LIBRARY_PATH == os.path.join(site, "hookline", "libhookline.so"), hookline.LIBRARY_PATH
    assert hookline.library_version() == hookline.__version__
    assert os.path.isfile(os.path.join(site, "hookline", "py.typed"))

    ws = tempfile.mkdtemp()
    with Engine({"workspace": ws, "session_id": "s-1", "hooks": {"PreToolUse": [{"matcher": "Bash",
            "hooks": [{"type": "command", "command": "echo 'not here' >&2; exit 2"}]}]}}) as engine:
        o = engine.pre_tool_use(tool_name="Bash", tool_input={"command": "ls"})
        assert (o.decision, o.reason) == ("deny", "not here"), o
    hooks = Hooks().with_pre_tool_call_decide("gate", lambda c: HookResult.deny("no"))
    assert hooks.run_pre_tool_call_decide(PreToolCallDecideContext("Bash")).allow is False
    print("installed wheel works")
    """
)

TYPED = textwrap.dedent(
    """
    from hookline import HookResult, Hooks, PreToolCallDecideContext

    hooks = Hooks()

    @hooks.on_pre_tool_call_decide("gate")
    def gate(ctx: PreToolCallDecideContext) -> HookResult:
        return HookResult.allow() if ctx.tool_name != "Bash" else HookResult.deny("no")

    allowed: bool = hooks.run_pre_tool_call_decide(PreToolCallDecideContext("Read")).allow
    """
)


def _clean_env() -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HOOKLINE_", "PYTHON", "VIRTUAL_ENV"))}
    env.pop("LD_LIBRARY_PATH", None)
    return env


@pytest.mark.skipif(not WHEEL, reason="HOOKLINE_TEST_WHEEL is not set (make test-python sets it)")
def test_the_wheel_is_a_platform_wheel_carrying_the_library() -> None:
    assert WHEEL
    name = Path(WHEEL).name
    assert name.startswith("hookline-") and "-py3-none-" in name
    if sys.platform.startswith("linux"):
        assert "manylinux" in name, name
    with zipfile.ZipFile(WHEEL) as z:
        names = z.namelist()
        wheel_meta = z.read(next(n for n in names if n.endswith(".dist-info/WHEEL"))).decode()
    assert "hookline/libhookline.so" in names or "hookline/libhookline.dylib" in names
    assert "hookline/py.typed" in names
    assert "Root-Is-Purelib: false" in wheel_meta
    assert not any(n.startswith("tests/") for n in names)


@pytest.mark.skipif(not WHEEL, reason="HOOKLINE_TEST_WHEEL is not set (make test-python sets it)")
def test_the_wheel_installs_into_a_fresh_venv_and_works_outside_the_checkout(tmp_path: Path) -> None:
    assert WHEEL
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, env=_clean_env())
    py = venv / "bin" / "python"
    subprocess.run(
        [str(py), "-m", "pip", "install", "--quiet", "--no-index", "--disable-pip-version-check", WHEEL],
        check=True, env=_clean_env(),
    )
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    assert CHECKOUT not in outside.parents
    (outside / "use.py").write_text(SCRIPT)
    p = subprocess.run([str(py), "use.py"], cwd=outside, env=_clean_env(), capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stdout + p.stderr
    assert p.stdout.strip() == "installed wheel works"
    # The type information ships with it: mypy --strict checks a user's code against the installed package.
    (outside / "typed.py").write_text(TYPED)
    p = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--python-executable", str(py), "typed.py"],
        cwd=outside, env=_clean_env(), capture_output=True, text=True, timeout=300,
    )
    assert p.returncode == 0, p.stdout + p.stderr


@pytest.mark.skipif(not SDIST, reason="HOOKLINE_TEST_SDIST is not set (make test-python sets it)")
def test_the_sdist_carries_the_crate_sources_cargo_builds_it_from() -> None:
    assert SDIST
    with tarfile.open(SDIST) as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
    for required in (
        "pyproject.toml", "setup.py", "README.md", "LICENSE-MIT", "LICENSE-APACHE",
        "src/hookline/__init__.py", "src/hookline/py.typed",
        "rust/Cargo.toml", "rust/Cargo.lock", "rust/build.rs", "rust/src/lib.rs", "rust/include/hookline.h",
    ):
        assert required in names, required
    assert not any(n.endswith((".so", ".whl")) for n in names)
