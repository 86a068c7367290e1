"""Build of the hookline wheel: the pure-Python package plus libhookline.so inside it.

Where the library comes from (the first that applies):

1. ``HOOKLINE_WHEEL_LIB``: a prebuilt ``libhookline.so`` to bundle as is (with
   ``HOOKLINE_WHEEL_PLAT`` naming another platform's wheel tag, e.g. ``win_amd64`` for a
   ``hookline.dll`` cross-built with mingw-w64: the library is bundled under that platform's
   file name and the wheel is tagged for it);
2. an sdist (``rust/Cargo.toml`` beside this file: the crate's sources, added by ``sdist``):
   ``cargo build --release --lib`` of that crate;
3. a hookline checkout (``../../Cargo.toml``): ``cargo build --release --lib`` there (a no-op
   after ``make lib``), then its ``target/release/libhookline.so``.

The wheel is a platform wheel (``py3-none-<platform>``): the package has no extension module,
only the shared library, which it loads with ctypes and which does not depend on the Python
version. ``make python-wheel`` then lets auditwheel give it the manylinux tag that the glibc
symbol versions of the library allow.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.command.sdist import sdist
from setuptools.dist import Distribution

try:
    from setuptools.command.bdist_wheel import bdist_wheel
except ImportError:  # setuptools < 70.1
    from wheel.bdist_wheel import bdist_wheel  # type: ignore[no-redef]

HERE = Path(__file__).resolve().parent
# A wheel for another platform (HOOKLINE_WHEEL_PLAT, with a prebuilt HOOKLINE_WHEEL_LIB).
PLAT = os.environ.get("HOOKLINE_WHEEL_PLAT") or None
if PLAT is not None and not os.environ.get("HOOKLINE_WHEEL_LIB"):
    raise SystemExit("hookline: HOOKLINE_WHEEL_PLAT needs HOOKLINE_WHEEL_LIB (a library built for that platform)")
_OS = "win32" if PLAT and PLAT.startswith("win") else "darwin" if PLAT and PLAT.startswith("macosx") else sys.platform
LIB = {"darwin": "libhookline.dylib", "win32": "hookline.dll"}.get(_OS, "libhookline.so")


def _cargo(manifest: Path, target_dir: Path) -> Path:
    cargo = os.environ.get("CARGO", "cargo")
    if shutil.which(cargo) is None:
        raise SystemExit(
            "hookline: building the wheel needs cargo (Rust 1.85 or newer, https://rustup.rs) to compile "
            "libhookline, or HOOKLINE_WHEEL_LIB set to a prebuilt libhookline.so"
        )
    cmd = [cargo, "build", "--release", "--lib", "--manifest-path", str(manifest)]
    if (manifest.parent / "Cargo.lock").is_file():
        cmd.append("--locked")
    env = dict(os.environ, CARGO_TARGET_DIR=str(target_dir))
    print("hookline: " + " ".join(cmd), file=sys.stderr, flush=True)
    subprocess.run(cmd, check=True, env=env)
    return target_dir / "release" / LIB


def find_library(build_temp: Path) -> Path:
    prebuilt = os.environ.get("HOOKLINE_WHEEL_LIB")
    if prebuilt:
        path = Path(prebuilt)
        if not path.is_file():
            raise SystemExit(f"hookline: HOOKLINE_WHEEL_LIB={prebuilt} is not a file")
        return path
    crate = HERE / "rust" / "Cargo.toml"
    if crate.is_file():  # an sdist
        return _cargo(crate, build_temp / "cargo-target")
    repo = HERE.parent.parent
    if (repo / "Cargo.toml").is_file() and (repo / "include" / "hookline.h").is_file():  # the checkout
        return _cargo(repo / "Cargo.toml", repo / "target")
    raise SystemExit("hookline: no library to bundle: not an sdist, not in a hookline checkout, no HOOKLINE_WHEEL_LIB")


class BinaryDistribution(Distribution):
    """The wheel carries a native library: a platform wheel, installed into platlib."""

    def has_ext_modules(self) -> bool:
        return True


class BuildPy(build_py):
    def run(self) -> None:
        super().run()
        build_temp = Path(self.get_finalized_command("build").build_temp)
        build_temp.mkdir(parents=True, exist_ok=True)
        lib = find_library(build_temp.resolve())
        dest = Path(self.build_lib) / "hookline" / LIB
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(lib, dest)
        os.chmod(dest, 0o755)


class BdistWheel(bdist_wheel):
    def finalize_options(self) -> None:
        super().finalize_options()
        self.root_is_pure = False

    def get_tag(self) -> tuple:
        _, _, plat = super().get_tag()
        plat = PLAT or plat
        return "py3", "none", plat  # any Python 3 (ctypes, no extension module)


class Sdist(sdist):
    """The sdist carries the Rust crate (as ``cargo package`` makes it) under ``rust/``."""

    def make_release_tree(self, base_dir: str, files: list) -> None:
        super().make_release_tree(base_dir, files)
        repo = HERE.parent.parent
        if (HERE / "rust" / "Cargo.toml").is_file():  # an sdist made from an sdist
            shutil.copytree(HERE / "rust", Path(base_dir) / "rust")
            return
        cargo = os.environ.get("CARGO", "cargo")
        with tempfile.TemporaryDirectory() as tmp:
            subprocess.run(
                [cargo, "package", "--no-verify", "--allow-dirty", "--quiet", "-p", "hookline", "--target-dir", tmp],
                cwd=repo,
                check=True,
            )
            crates = sorted(Path(tmp, "package").glob("hookline-*.crate"))
            if not crates:
                raise SystemExit("hookline: cargo package made no hookline-*.crate")
            with tarfile.open(crates[-1]) as tar:
                top = tar.getnames()[0].split("/")[0]
                tar.extractall(tmp)
            shutil.copytree(Path(tmp, top), Path(base_dir) / "rust")


setup(
    distclass=BinaryDistribution,
    cmdclass={"build_py": BuildPy, "bdist_wheel": BdistWheel, "sdist": Sdist},
)
