"""Bad input gets the exception of its status, with a message naming what is wrong; nothing
crashes the interpreter."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

import hookline
from hookline import Status
from conftest import claude


def test_every_status_has_its_exception_class_carrying_the_status() -> None:
    from hookline._errors import error_for

    for status in Status:
        if status is Status.OK:
            continue
        e = error_for(status, "msg")
        assert isinstance(e, hookline.HooklineError)
        assert (e.status, e.code, e.message) == (status, f"HL_ERR_{status.name}", "msg")
        assert str(e) == f"HL_ERR_{status.name}: msg"
    assert type(error_for(99, "x")) is hookline.HooklineError and error_for(99).code == "HL_STATUS_99"
    assert issubclass(hookline.InvalidArgumentError, ValueError)
    assert issubclass(hookline.NullArgumentError, TypeError)


def test_engine_options_that_are_not_a_dict_are_invalid_argument() -> None:
    with pytest.raises(hookline.InvalidArgumentError, match="must be a dict"):
        hookline.Engine([("workspace", "/")])  # type: ignore[arg-type]


def test_a_missing_option_is_invalid_argument_naming_it(workspace: Path) -> None:
    with pytest.raises(hookline.InvalidArgumentError) as e:
        hookline.Engine({"workspace": workspace})
    assert "session_id" in e.value.message and e.value.status == Status.INVALID_ARGUMENT


def test_a_misspelled_option_is_invalid_argument_naming_it(workspace: Path) -> None:
    with pytest.raises(hookline.InvalidArgumentError, match="workspace_gate"):
        hookline.Engine({"workspace": workspace, "session_id": "s", "workspace_gate": True})


def test_a_workspace_that_is_not_a_directory_is_invalid_argument(tmp_path: Path) -> None:
    with pytest.raises(hookline.InvalidArgumentError, match="workspace"):
        hookline.Engine({"workspace": tmp_path / "absent", "session_id": "s"})


def test_an_invalid_hooks_config_is_invalid_config_naming_the_entry(workspace: Path) -> None:
    with pytest.raises(hookline.InvalidConfigError) as e:
        hookline.Engine({"workspace": workspace, "session_id": "s",
                         "hooks": {"lifecycle": {"pre_tool_use": [{"hooks": [{"command": "ok"}, {"command": " "}]}]}}})
    assert "hooks.pre_tool_use[0].hooks[1]" in e.value.message


def test_an_unreadable_hooks_file_is_an_io_error(workspace: Path) -> None:
    with pytest.raises(hookline.HooklineIOError):
        hookline.Engine({"workspace": workspace, "session_id": "s", "hooks_file": workspace / "missing.json"})


def test_a_value_that_is_not_json_is_invalid_argument_naming_the_parameter(make_engine: Any) -> None:
    engine = make_engine()
    with pytest.raises(hookline.InvalidArgumentError, match="input is not JSON"):
        engine.pre_tool_use(tool_name="Bash", tool_input={"x": {1, 2}})
    with pytest.raises(hookline.InvalidArgumentError, match="input is not JSON"):
        engine.pre_tool_use(tool_name="Bash", tool_input={"x": float("nan")})
    with pytest.raises(hookline.InvalidArgumentError, match="options is not JSON"):
        hookline.Engine({"workspace": object(), "session_id": "s"})


def test_a_missing_required_input_field_is_invalid_argument_naming_it(make_engine: Any) -> None:
    from conftest import vtcode

    engine = make_engine(vtcode("session_end", "exit 0"))  # the VT Code profile requires the seed's fields
    with pytest.raises(hookline.InvalidArgumentError, match="reason"):
        engine.run("SessionEnd", {"turn_id": "t"})
    with pytest.raises(hookline.InvalidArgumentError, match="tool_name"):
        engine.pre_tool_use(tool_name=None)  # type: ignore[arg-type]
    with pytest.raises(hookline.InvalidArgumentError, match="reason"):
        asyncio.run(engine.session_end_async(turn_id="t", reason="sideways"))


def test_an_input_that_is_not_an_object_is_invalid_argument(make_engine: Any) -> None:
    with pytest.raises(hookline.InvalidArgumentError):
        make_engine().run("PreToolUse", [1, 2])  # type: ignore[arg-type]


def test_an_unknown_event_is_invalid_argument(make_engine: Any) -> None:
    engine = make_engine()
    with pytest.raises(hookline.InvalidArgumentError, match="unknown event 'PreToolUsed'"):
        engine.run("PreToolUsed", {})
    with pytest.raises(hookline.InvalidArgumentError):
        engine.run(42, {})
    with pytest.raises(hookline.InvalidArgumentError):
        asyncio.run(engine.run_async(-1, {}))
    with pytest.raises(hookline.InvalidArgumentError):
        engine.run(True, {})  # a bool is not an event number


def test_an_unknown_hook_point_is_invalid_argument() -> None:
    with hookline.Hooks() as h:
        with pytest.raises(hookline.InvalidArgumentError, match="pre_turns"):
            h.run("pre_turns", {})
        with pytest.raises(hookline.InvalidArgumentError):
            h.run(11, {})


def test_a_nul_character_in_a_name_is_refused_before_c_would_cut_it(make_engine: Any) -> None:
    with pytest.raises(hookline.InvalidArgumentError, match="NUL character at byte 3"):
        make_engine().add_callback_hook("Stop", "abc\0def", lambda p: None)
    with hookline.Hooks() as h:
        with pytest.raises(hookline.InvalidArgumentError, match="NUL"):
            h.on_pre_turn("x\0", lambda c: None)


def test_a_string_that_is_not_valid_unicode_text_is_refused(make_engine: Any) -> None:
    engine = make_engine()
    with pytest.raises(hookline.InvalidUtf8Error):
        engine.add_callback_hook("Stop", "bad\udcff", lambda p: None)
    with pytest.raises(hookline.InvalidJsonError):
        engine.pre_tool_use(tool_name="Bash\udcff")  # escaped in JSON: the library's parser rejects it


def test_a_none_name_is_null_argument(make_engine: Any) -> None:
    with pytest.raises(hookline.NullArgumentError):
        make_engine().add_callback_hook("Stop", None, lambda p: None)  # type: ignore[arg-type]


def test_json_nested_deeper_than_the_parser_allows_is_invalid_json() -> None:
    deep: Any = 0
    for _ in range(500):
        deep = [deep]
    with hookline.Hooks() as h:
        with pytest.raises(hookline.InvalidJsonError):
            h.run("pre_tool_call_decide", {"tool_name": "T", "tool_args": deep})
    deeper: Any = 0
    for _ in range(100_000):
        deeper = [deeper]
    with hookline.Hooks() as h:
        with pytest.raises(hookline.InvalidArgumentError, match="not JSON"):
            h.run("pre_tool_call_decide", {"tool_name": "T", "tool_args": deeper})


def test_a_large_input_works(make_engine: Any) -> None:
    engine = make_engine()
    engine.add_callback_hook("PreToolUse", "size", lambda p: {"systemMessage": str(len(p["tool_input"]["blob"]))})
    o = engine.pre_tool_use(tool_name="Write", tool_input={"blob": "x" * (16 << 20)})
    assert o.messages[0].text == str(16 << 20)


def test_a_closed_engine_refuses_every_call_with_closed_error(make_engine: Any) -> None:
    engine = make_engine(claude("PreToolUse", "exit 0"))
    engine.close()
    assert engine.closed
    for call in (
        lambda: engine.pre_tool_use(tool_name="Bash"),
        lambda: engine.digest(),
        lambda: engine.add_callback_hook("Stop", "x", lambda p: None),
        lambda: asyncio.run(engine.pre_tool_use_async(tool_name="Bash")),
        lambda: engine.run_named("Setup", {}),
    ):
        with pytest.raises(hookline.ClosedError):
            call()
    assert engine.needs_approval is False and engine.workspace_gated is False
    engine.close()  # idempotent


def test_a_non_callable_callback_is_invalid_argument(make_engine: Any) -> None:
    with pytest.raises(hookline.InvalidArgumentError, match="callable"):
        make_engine().add_callback_hook("Stop", "x", 3)  # type: ignore[call-overload]
    with hookline.Hooks() as h:
        with pytest.raises(hookline.InvalidArgumentError, match="callable"):
            h.register("pre_turn", "x", None)  # type: ignore[arg-type]


def test_a_reply_that_is_not_json_is_a_callback_failure(make_engine: Any) -> None:
    failures: Any = []
    engine = make_engine(on_callback_error=lambda e, i: failures.append(e))
    engine.add_callback_hook("Stop", "x", lambda p: {"a": object()})
    o = engine.stop(last_assistant_message="", stop_hook_active=False)
    assert o.hooks[0].exit_code == 1
    assert isinstance(failures[0], hookline.InvalidArgumentError) and "reply is not JSON" in str(failures[0])
