"""Engine callback hooks, the workspace approval gate, reload and the transcript path."""

from __future__ import annotations

import asyncio
import json
import threading
from pathlib import Path
from typing import Any, Dict, List

import pytest

import hookline
from hookline import HookResult
from conftest import claude, vtcode


def test_a_callback_hook_deny_is_exit_2_with_its_message(make_engine: Any) -> None:
    engine = make_engine()
    engine.add_callback_hook("PreToolUse", "policy", lambda p: HookResult.deny("generated file"), matcher="Edit")
    o = engine.pre_tool_use(tool_name="Edit", tool_input={"path": "Cargo.lock"})
    assert (o.decision, o.reason) == ("deny", "generated file")
    (report,) = o.hooks
    assert (report.kind, report.name, report.command, report.exit_code) == ("callback", "policy", None, 2)
    # The matcher follows the Claude Code rule.
    assert engine.pre_tool_use(tool_name="Read").hooks == []


def test_add_callback_hook_takes_the_c_order_like_go_and_node(make_engine: Any) -> None:
    # (event, matcher, name, fn), as hl_engine_add_callback_hook, Go's AddCallbackHook and Node's
    # addCallbackHook take them; the earlier (event, name, fn, matcher=) order keeps working.
    engine = make_engine()
    engine.add_callback_hook("PreToolUse", "Edit", "c-order", lambda p: HookResult.deny("c order"))
    assert engine.pre_tool_use(tool_name="Read").hooks == []
    o = engine.pre_tool_use(tool_name="Edit")
    assert (o.decision, o.reason, [h.name for h in o.hooks]) == ("deny", "c order", ["c-order"])

    seen: List[str] = []

    @engine.add_callback_hook("PostToolUse", None, "decorated")
    def decorated(payload: Dict[str, Any]) -> None:
        seen.append(payload["tool_name"])

    engine.add_callback_hook("PostToolUse", None, "all", lambda p: seen.append("all:" + p["tool_name"]))
    engine.post_tool_use(tool_name="Grep", tool_response={})
    assert seen == ["Grep", "all:Grep"]
    with pytest.raises(TypeError):
        engine.add_callback_hook("Stop", "m", "n", lambda p: None, matcher="m")  # type: ignore[call-overload]


def test_a_callback_hook_receives_the_payload_a_command_reads(make_engine: Any, workspace: Path) -> None:
    engine = make_engine()
    seen: List[Dict[str, Any]] = []

    @engine.add_callback_hook(hookline.HookEvent.PRE_TOOL_USE, "look")
    def look(payload: Dict[str, Any]) -> None:
        seen.append(payload)

    engine.pre_tool_use(tool_name="Bash", tool_input={"command": "ls"}, tool_call_id="c-7")
    (p,) = seen
    assert (p["hook_event_name"], p["tool_name"], p["tool_input"], p["tool_use_id"]) == ("PreToolUse", "Bash", {"command": "ls"}, "c-7")
    assert (p["session_id"], p["cwd"]) == ("s-1", str(workspace))
    assert look.__name__ == "look"  # the decorator returns the function


def test_a_callback_hook_reply_reads_like_a_command_s_stdout(make_engine: Any) -> None:
    engine = make_engine()
    engine.add_callback_hook(
        "PreToolUse", "rewrite",
        lambda p: {"hookSpecificOutput": {"permissionDecision": "allow", "updatedInput": {"command": "ls -la"}}},
    )
    o = engine.pre_tool_use(tool_name="Bash", tool_input={"command": "ls"})
    assert (o.decision, o.updated_input) == ("allow", {"command": "ls -la"})
    engine.add_callback_hook("PostToolUse", "text", lambda p: "plain text from python")
    o2 = engine.post_tool_use(tool_name="Bash", tool_response="ok")
    assert [(m.level, m.text) for m in o2.messages] == [("info", "plain text from python")]


def test_a_callback_hook_allow_allows_pre_tool_use(make_engine: Any) -> None:
    engine = make_engine()
    engine.add_callback_hook("PreToolUse", "ok", lambda p: HookResult.allow())
    assert engine.pre_tool_use(tool_name="Bash").decision == "allow"


def test_a_callback_hook_exception_is_exit_code_1_and_is_reported(make_engine: Any) -> None:
    failures: List[Any] = []
    engine = make_engine(on_callback_error=lambda e, info: failures.append((str(e), info.name, info.kind, info.where)))
    engine.add_callback_hook("PreToolUse", "broken", lambda p: p["missing"])
    o = engine.pre_tool_use(tool_name="Bash")
    assert o.decision == "continue"
    assert o.hooks[0].exit_code == 1
    assert failures == [("'missing'", "broken", "hook", "PreToolUse")]


def test_adding_an_existing_callback_hook_replaces_it_in_place(make_engine: Any) -> None:
    engine = make_engine()
    engine.add_callback_hook("Stop", "a", lambda p: None)
    engine.add_callback_hook("Stop", "b", lambda p: None)
    engine.add_callback_hook("Stop", "a", lambda p: {"decision": "block", "reason": "from a2"})
    o = engine.stop(last_assistant_message="x", stop_hook_active=False)
    assert [h.name for h in o.hooks] == ["a"]  # a blocks first; b is not reached
    assert o.block_reason == "from a2"


def test_callback_hooks_run_after_the_configured_commands(make_engine: Any) -> None:
    engine = make_engine(claude("PostToolUse", "echo '{\"systemMessage\":\"command\"}'"))
    engine.add_callback_hook("PostToolUse", "cb", lambda p: {"systemMessage": "callback"})
    o = engine.post_tool_use(tool_name="Bash", tool_response=None)
    assert [h.kind for h in o.hooks] == ["command", "callback"]
    assert [m.text for m in o.messages] == ["command", "callback"]


def test_blocking_runs_call_callback_hooks_on_the_calling_thread(make_engine: Any) -> None:
    engine = make_engine()
    threads: List[int] = []
    engine.add_callback_hook("PreToolUse", "where", lambda p: threads.append(threading.get_ident()))
    engine.pre_tool_use(tool_name="Bash")
    assert threads == [threading.get_ident()]


@pytest.mark.parametrize("bad", ["", "   "])
def test_a_blank_callback_hook_name_is_invalid_argument(make_engine: Any, bad: str) -> None:
    engine = make_engine()
    before = hookline._callbacks.handler_count()
    with pytest.raises(hookline.InvalidArgumentError):
        engine.add_callback_hook("PreToolUse", bad, lambda p: None)
    assert hookline._callbacks.handler_count() == before


def test_an_invalid_callback_hook_matcher_is_invalid_argument(make_engine: Any) -> None:
    with pytest.raises(hookline.InvalidArgumentError):
        make_engine().add_callback_hook("PreToolUse", "x", lambda p: None, matcher="(unclosed")


# --------------------------------------------------------------------------- the gate

DIGEST_EXAMPLE = "dab52b17fd76003bdb76b274ea78a3c98e23aee6eadbe388d34d5d946751bc89"


def test_the_digest_of_the_documented_example(make_engine: Any) -> None:
    engine = make_engine(vtcode("pre_tool_use", "./check.sh", matcher="Bash", timeout_seconds=10))
    assert engine.digest() == DIGEST_EXAMPLE
    (p,) = engine.previews()
    assert (p.event, p.matcher, p.command, p.timeout_seconds) == ("pre_tool_use", "Bash", "./check.sh", 10)
    assert p.raw["command"] == "./check.sh"


def test_a_gated_engine_runs_no_command_until_approved(make_engine: Any, workspace: Path) -> None:
    engine = make_engine(claude("PreToolUse", "touch ran; echo no >&2; exit 2"), workspace_gated=True)
    assert engine.workspace_gated and engine.needs_approval
    o = engine.pre_tool_use(tool_name="Bash")
    assert o.decision == "continue"
    assert o.hooks[0].skipped == "not_approved" and o.hooks[0].exit_code is None
    assert any("not approved" in m.text for m in o.messages)
    assert not (workspace / "ran").exists()
    engine.approve()
    assert not engine.needs_approval
    o = engine.pre_tool_use(tool_name="Bash")
    assert (o.decision, o.reason) == ("deny", "no") and (workspace / "ran").exists()


def test_a_persisted_approval_lets_the_next_engine_start_approved(make_engine: Any, tmp_path: Path) -> None:
    store = tmp_path / "store" / "trust.json"
    hooks = claude("PreToolUse", "exit 0")
    first = make_engine(hooks, workspace_gated=True, trust_store=store)
    assert first.needs_approval
    first.approve(persist=True)
    assert store.is_file()
    second = make_engine(hooks, workspace_gated=True, trust_store=store)
    assert not second.needs_approval
    other = make_engine(claude("PreToolUse", "exit 1"), workspace_gated=True, trust_store=store)
    assert other.needs_approval  # another command set is another digest


def test_an_ungated_engine_never_needs_approval(make_engine: Any) -> None:
    engine = make_engine(claude("PreToolUse", "exit 0"))
    assert not engine.workspace_gated and not engine.needs_approval


def test_reload_swaps_the_config_and_a_changed_digest_needs_a_new_approval(make_engine: Any, workspace: Path) -> None:
    engine = make_engine(claude("PreToolUse", "exit 0"), workspace_gated=True)
    engine.approve()
    d1 = engine.digest()
    opts = {"workspace": workspace, "session_id": "s-1", "workspace_gated": True}
    engine.reload({**opts, "hooks": claude("PreToolUse", "exit 0")})
    assert engine.digest() == d1 and not engine.needs_approval
    engine.reload({**opts, "hooks": claude("PreToolUse", "echo changed >&2; exit 2")})
    assert engine.digest() != d1 and engine.needs_approval
    # A failed reload changes nothing (a VT Code config rejects a malformed entry; a Claude Code
    # one skips it, see config_warnings).
    with pytest.raises(hookline.InvalidConfigError):
        engine.reload({**opts, "hooks": {"lifecycle": {"pre_tool_use": [{"hooks": [{"type": "command", "command": ""}]}]}}})
    assert engine.needs_approval and engine.previews()[0].command == "echo changed >&2; exit 2"


def test_a_callback_hooks_exception_text_is_in_the_outcome(make_engine: Any) -> None:
    engine = make_engine()

    def boom(payload: Any) -> None:
        raise RuntimeError("policy file unreadable")

    engine.add_callback_hook("Stop", "boom", boom)
    o = engine.stop(last_assistant_message="", stop_hook_active=False)
    assert o.hooks[0].exit_code == 1
    assert [m.text for m in o.messages] == ["Stop hook `boom` exited with code 1: policy file unreadable"]


def test_reload_can_replace_the_callback_error_handler(make_engine: Any, workspace: Path) -> None:
    seen: List[str] = []
    engine = make_engine()
    engine.add_callback_hook("Stop", "boom", lambda p: 1 / 0)
    engine.reload({"workspace": workspace, "session_id": "s-1"}, on_callback_error=lambda e, i: seen.append(i.name))
    engine.stop(last_assistant_message="", stop_hook_active=False)
    assert seen == ["boom"]


def test_the_transcript_path_is_set_read_and_given_to_hooks(make_engine: Any, workspace: Path, tmp_path: Path) -> None:
    engine = make_engine(claude("Notification", 'echo "$CLAUDE_TRANSCRIPT_PATH" > "$CLAUDE_PROJECT_DIR/t.txt"'))
    assert engine.transcript_path is None
    path = tmp_path / "transcript.jsonl"
    engine.set_transcript_path(path)
    assert engine.transcript_path == str(path)
    engine.notification(notification_type="idle_prompt", title="", message="")
    assert (workspace / "t.txt").read_text().strip() == str(path)
    engine.set_transcript_path(None)
    assert engine.transcript_path is None


def test_the_loaded_library_is_this_package_s_version() -> None:
    assert hookline.library_version() == hookline.__version__


def test_log_messages_reach_a_python_handler(make_engine: Any) -> None:
    records: List[Any] = []
    hookline.set_log_handler(lambda level, msg: records.append((level, msg)), hookline.WARN)
    try:
        h = hookline.Hooks()
        h.on_post_turn("dup", lambda c: None)
        h.on_post_turn("dup", lambda c: None)  # replaced in place: a warning
        h.close()
    finally:
        hookline.set_log_handler(None)
    assert any(level == hookline.WARN and "dup" in msg for level, msg in records)


def test_async_runs_call_callback_hooks_on_hookline_threads(make_engine: Any) -> None:
    engine = make_engine(claude("PreToolUse", "exit 0"))  # a command: the run is handed off
    threads: List[int] = []
    engine.add_callback_hook("PreToolUse", "where", lambda p: threads.append(threading.get_ident()))
    o = asyncio.run(engine.pre_tool_use_async(tool_name="Bash"))
    assert [h.kind for h in o.hooks] == ["command", "callback"]
    assert len(threads) == 1 and threads[0] != threading.get_ident()
    assert json.dumps(o.raw)  # the raw outcome is plain JSON


def test_config_warnings_name_a_skipped_claude_entry_and_the_rest_loads(make_engine: Any) -> None:
    # "Fixed a malformed hooks entry in settings.json no longer invalidating the entire file".
    hooks = {"PreToolUse": [{"hooks": [{"type": "command"}, {"type": "command", "command": "cat >/dev/null; echo no >&2; exit 2"}]}]}
    engine = make_engine(hooks)
    (w,) = engine.config_warnings()
    assert w["path"] == "hooks.PreToolUse[0].hooks[0]" and "must specify a command" in w["message"]
    assert engine.pre_tool_use(tool_name="Bash").decision == "deny"
    assert make_engine(claude("Stop", "true")).config_warnings() == []
