"""The binding against the ABI schema (``include/hookline.schema.json``, written from the Rust
model): every status, event, hook point, dialect, option, event input field, report field and C
function the library has, this package has too, with the same names and numbers. A value added
in Rust and forgotten here fails this test."""

from __future__ import annotations

import dataclasses
import inspect
import json
import re
import typing
from pathlib import Path
from typing import Any, Dict, List, Set

import pytest

import hookline
from hookline import _native
from hookline._types import HookReport, Message

SCHEMA_PATH = Path(__file__).resolve().parents[3] / "include" / "hookline.schema.json"

# C functions this binding does not call: the plain blocking run (it runs through reserved runs,
# which close() can cancel) and the trace handler (it has no tracing API yet). A new C function
# fails the test until it is declared in _native.py or named here.
NOT_BOUND = {"hl_engine_run", "hl_engine_set_trace_handler"}


@pytest.fixture(scope="module")
def schema() -> Dict[str, Any]:
    if not SCHEMA_PATH.is_file():
        pytest.skip("outside the hookline checkout (no include/hookline.schema.json)")
    data: Dict[str, Any] = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    return data


def test_statuses(schema: Dict[str, Any]) -> None:
    want = [(s["name"], s["number"]) for s in schema["statuses"]]
    assert [(s.code, int(s)) for s in hookline.Status] == want


def test_events(schema: Dict[str, Any]) -> None:
    want = [(e["name"], e["key"], e["number"]) for e in schema["events"]]
    assert [(e.event_name, e.config_key, int(e)) for e in hookline.HookEvent] == want


def test_hook_points(schema: Dict[str, Any]) -> None:
    want = [(p["name"], p["number"]) for p in schema["hook_points"]]
    assert [(p.label, int(p)) for p in hookline.HookPoint] == want


def test_dialects(schema: Dict[str, Any]) -> None:
    assert list(typing.get_args(hookline.Dialect)) == schema["enums"]["dialect"]
    assert [d["name"] for d in schema["dialects"]] == schema["enums"]["dialect"]


def test_options(schema: Dict[str, Any]) -> None:
    keys = typing.get_type_hints(hookline.EngineOptions)
    assert sorted(keys) == sorted(o["name"] for o in schema["options"])
    required = {o["name"] for o in schema["options"] if o["required"]}
    assert set(hookline.EngineOptions.__required_keys__) == required


def test_every_event_method_takes_the_event_s_input_fields(schema: Dict[str, Any]) -> None:
    for event in schema["events"]:
        method = getattr(hookline.Engine, event["key"])
        params = set(inspect.signature(method).parameters) - {"self", "extra"}
        fields = {f["name"] for f in schema["inputs"][event["name"]]}
        assert params == fields, f"Engine.{event['key']} takes {sorted(params)}, the input has {sorted(fields)}"
        async_params = set(inspect.signature(getattr(hookline.Engine, event["key"] + "_async")).parameters)
        assert async_params - {"self", "extra"} == fields, f"Engine.{event['key']}_async"


def _shape(schema: Dict[str, Any], name: str) -> List[str]:
    return [f["name"] for f in schema["outcomes"]["shapes"][name]]


def test_reports_and_messages_have_the_schema_s_fields(schema: Dict[str, Any]) -> None:
    assert sorted(f.name for f in dataclasses.fields(HookReport)) == sorted(_shape(schema, "hook_report"))
    assert [f.name for f in dataclasses.fields(Message)] == _shape(schema, "message")
    common = {"continue" if f.name == "continue_" else f.name for f in dataclasses.fields(hookline.Outcome)}
    assert common - {"raw"} == set(_shape(schema, "common"))


def test_c_functions(schema: Dict[str, Any]) -> None:
    source = Path(_native.__file__).read_text(encoding="utf-8")
    declared: Set[str] = set(re.findall(r'_declare\(\s*"(hl_[a-z_]+)"', source))
    functions = {f["name"] for f in schema["functions"]}
    assert declared, "no _declare(...) found in _native.py"
    assert declared - functions == set(), "declared but not in the library"
    assert functions - declared == NOT_BOUND, "not declared in _native.py (declare it, or name it in NOT_BOUND)"
