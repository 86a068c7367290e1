"""Shared fixtures: a fresh workspace per test, and a trust store that is never the user's."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional

import pytest

import hookline


@pytest.fixture(autouse=True)
def _isolated_trust_store(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOOKLINE_TRUST_STORE", str(tmp_path_factory.mktemp("trust") / "trust.json"))


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    ws.mkdir()
    return ws.resolve()


def claude(event: str, command: str, matcher: Optional[str] = None, **hook: Any) -> Dict[str, Any]:
    """A Claude Code settings config with one command hook."""
    group: Dict[str, Any] = {"hooks": [{"type": "command", "command": command, **hook}]}
    if matcher is not None:
        group["matcher"] = matcher
    return {event: [group]}


def vtcode(key: str, command: str, matcher: Optional[str] = None, **hook: Any) -> Dict[str, Any]:
    """A VT Code lifecycle config with one command hook."""
    group: Dict[str, Any] = {"hooks": [{"command": command, **hook}]}
    if matcher is not None:
        group["matcher"] = matcher
    return {"lifecycle": {key: [group]}}


@pytest.fixture
def make_engine(workspace: Path) -> Iterator[Any]:
    """make_engine(hooks=None, **options) -> an Engine closed at the end of the test."""
    made: List[hookline.Engine] = []

    def make(hooks: Optional[Dict[str, Any]] = None, **options: Any) -> hookline.Engine:
        on_error = options.pop("on_callback_error", None)
        opts: Dict[str, Any] = {"workspace": workspace, "session_id": "s-1", **options}
        if hooks is not None:
            opts["hooks"] = hooks
        e = hookline.Engine(opts, on_callback_error=on_error)
        made.append(e)
        return e

    yield make
    for e in made:
        e.close()


def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie still answers kill(0): read its state.
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ", 1)[1][0] != "Z"
    except OSError:
        return False


PYTHON = sys.executable
