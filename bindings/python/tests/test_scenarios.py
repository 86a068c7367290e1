"""The scenario corpus (``tests/scenarios/<dialect>/<name>.json`` of the checkout) run through
this binding: each file's options, workspace files, event and input, and its expected outcome
subset, the same cases the Rust suite runs (see ``tests/it/scenarios.rs`` for the format)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, List, Optional

import pytest

import hookline

CORPUS = Path(__file__).resolve().parents[3] / "tests" / "scenarios"
FILES = sorted(CORPUS.glob("*/*.json")) if CORPUS.is_dir() else []


def mismatch(expect: Any, actual: Any, at: str) -> Optional[str]:
    """Where ``actual`` differs from the subset ``expect`` (None: it matches)."""
    if isinstance(expect, dict) and isinstance(actual, dict):
        for k, v in expect.items():
            if k not in actual:
                return f"{at}.{k} is missing"
            m = mismatch(v, actual[k], f"{at}.{k}")
            if m:
                return m
        return None
    if isinstance(expect, list) and isinstance(actual, list) and len(expect) == len(actual):
        for i, (e, a) in enumerate(zip(expect, actual)):
            m = mismatch(e, a, f"{at}[{i}]")
            if m:
                return m
        return None
    if type(expect) is type(actual) and expect == actual:
        return None
    return f"{at}: expected {expect!r}, got {actual!r}"


def test_the_corpus_is_there() -> None:
    if not CORPUS.is_dir():
        pytest.skip("outside the hookline checkout (no tests/scenarios)")
    names: List[str] = sorted({f.parent.name for f in FILES})
    assert len(FILES) >= 10 and len(names) >= 7, FILES


def test_the_subset_match_notices_a_difference() -> None:
    out = {"decision": "deny", "hooks": [{"exit_code": 2}]}
    assert mismatch({"decision": "deny"}, out, "o") is None
    assert mismatch({"decision": "allow"}, out, "o")
    assert mismatch({"hooks": []}, out, "o")
    assert mismatch({"continue": True}, {"continue": 1}, "o")


@pytest.mark.parametrize("path", FILES, ids=[f"{f.parent.name}/{f.stem}" for f in FILES])
def test_scenario(path: Path, tmp_path: Path) -> None:
    scenario = json.loads(path.read_text(encoding="utf-8"))
    ws = tmp_path.resolve()
    for rel, text in scenario.get("files", {}).items():
        target = ws / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        os.chmod(target, 0o755)
    options = dict(scenario["options"], workspace=str(ws), session_id="scenario")
    if "hooks_file" in options:
        options["hooks_file"] = str(ws / options["hooks_file"])
    with hookline.Engine(options) as engine:
        outcome = engine.run(scenario["event"], scenario["input"])
    m = mismatch(scenario["expect"], outcome.raw, "outcome")
    assert m is None, f"{path.name}: {m}\n  outcome: {json.dumps(outcome.raw)}"
