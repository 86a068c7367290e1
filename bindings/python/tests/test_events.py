"""Every lifecycle event, blocking and asyncio: the typed input reaches the hook's payload, and the
hook's answer comes back in the event's typed outcome."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any, Callable, Dict, NamedTuple

import pytest

import hookline
from conftest import claude


class Case(NamedTuple):
    method: str
    event: str
    kwargs: Dict[str, Any]
    output: str  # shell: what the hook prints (after saving its payload)
    outcome_type: type
    check: Callable[[Any], None]


def _msg(text: str) -> Callable[[Any], None]:
    def check(o: hookline.Outcome) -> None:
        assert [(m.level, m.text) for m in o.messages] == [("info", text)]

    return check


def _json(value: Any) -> str:
    return "echo " + "'" + json.dumps(value) + "'"


def _check_pre_tool_use(o: hookline.PreToolUseOutcome) -> None:
    assert (o.decision, o.reason, o.updated_input) == ("allow", "fine", {"command": "ls -la"})


def _check_permission(o: hookline.PermissionRequestOutcome) -> None:
    assert o.decision is not None
    assert (o.decision.behavior, o.decision.scope, o.decision.interrupt) == ("allow", "once", False)


def _check_prompt(o: hookline.UserPromptSubmitOutcome) -> None:
    assert (o.allow_prompt, o.block_reason) == (False, "blocked prompt")


SUBAGENT = dict(
    parent_session_id="s-1", child_thread_id="th-2", agent_name="reviewer", display_label="Reviewer",
    background=False, status="completed",
)

# Claude Code discards systemMessage on SessionEnd and Notification, so their
# cases print plain stdout, which the outcome carries as an info message.
CASES = [
    Case("session_start", "SessionStart", {}, "echo 'ctx from hook'", hookline.SessionStartOutcome,
         lambda o: o.additional_context == ["ctx from hook"] or pytest.fail(repr(o))),
    Case("session_end", "SessionEnd", {"turn_id": "t-9", "reason": "completed"}, "echo bye",
         hookline.Outcome, _msg("bye")),
    Case("subagent_start", "SubagentStart", SUBAGENT, _json({"systemMessage": "sub started"}), hookline.Outcome,
         _msg("sub started")),
    Case("subagent_stop", "SubagentStop", SUBAGENT, _json({"decision": "block", "reason": "review more"}),
         hookline.StopOutcome, lambda o: o.block_reason == "review more" or pytest.fail(repr(o))),
    Case("user_prompt_submit", "UserPromptSubmit", {"turn_id": "t-1", "prompt": "hello"},
         "echo 'blocked prompt' >&2; exit 2", hookline.UserPromptSubmitOutcome, _check_prompt),
    Case("pre_tool_use", "PreToolUse", {"tool_name": "Bash", "tool_input": {"command": "ls"}, "tool_call_id": "c-1"},
         _json({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow",
                "permissionDecisionReason": "fine", "updatedInput": {"command": "ls -la"}}}),
         hookline.PreToolUseOutcome, _check_pre_tool_use),
    Case("post_tool_use", "PostToolUse",
         {"tool_name": "Bash", "tool_input": {"command": "ls"}, "tool_response": {"stdout": "a b"}, "tool_call_id": "c-2"},
         _json({"decision": "block", "reason": "look again"}), hookline.PostToolUseOutcome,
         lambda o: o.block_reason == "look again" or pytest.fail(repr(o))),
    Case("post_tool_use_failure", "PostToolUseFailure", {"tool_name": "Bash", "error": "exit 1", "tool_call_id": "c-3"},
         _json({"hookSpecificOutput": {"hookEventName": "PostToolUseFailure", "additionalContext": "retry it"}}),
         hookline.PostToolUseOutcome, lambda o: o.additional_context == ["retry it"] or pytest.fail(repr(o))),
    Case("permission_request", "PermissionRequest",
         {"tool_name": "Bash", "tool_input": {"command": "make"}, "permission_request": {"reason": "run make"},
          "permission_suggestions": [{"type": "addRules", "rules": []}]},
         _json({"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": {"behavior": "allow"}}}),
         hookline.PermissionRequestOutcome, _check_permission),
    Case("pre_compact", "PreCompact",
         {"trigger": "manual", "mode": "local", "original_message_count": 40, "compacted_message_count": 8},
         "echo 'not now' >&2; exit 2", hookline.StopOutcome,
         lambda o: o.block_reason == "not now" or pytest.fail(repr(o))),
    Case("stop", "Stop", {"last_assistant_message": "done", "stop_hook_active": False},
         _json({"decision": "block", "reason": "run the tests"}), hookline.StopOutcome,
         lambda o: o.block_reason == "run the tests" or pytest.fail(repr(o))),
    Case("notification", "Notification", {"notification_type": "idle_prompt", "title": "Idle", "message": "waiting"},
         "echo noted", hookline.Outcome, _msg("noted")),
]


def test_the_cases_cover_every_event() -> None:
    assert sorted(c.event for c in CASES) == sorted(e.event_name for e in hookline.HookEvent)


@pytest.mark.parametrize("mode", ["sync", "async"])
@pytest.mark.parametrize("case", CASES, ids=[c.method for c in CASES])
def test_each_event_sends_its_typed_input_and_returns_its_typed_outcome(
    case: Case, mode: str, make_engine: Any, workspace: Path
) -> None:
    engine = make_engine(claude(case.event, f'cat > "$CLAUDE_PROJECT_DIR/payload.json"; {case.output}'))
    if mode == "sync":
        outcome = getattr(engine, case.method)(**case.kwargs)
    else:
        outcome = asyncio.run(getattr(engine, case.method + "_async")(**case.kwargs))
    assert type(outcome) is case.outcome_type
    case.check(outcome)
    assert [h.kind for h in outcome.hooks] == ["command"]
    payload = json.loads((workspace / "payload.json").read_text())
    assert payload["hook_event_name"] == case.event
    assert payload["session_id"] == "s-1"
    assert payload["cwd"] == str(workspace)
    for key, value in case.kwargs.items():
        assert payload[key] == value, key
    if "tool_call_id" in case.kwargs:
        assert payload["tool_use_id"] == case.kwargs["tool_call_id"]


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_extra_fields_pass_through_to_the_payload_and_typed_fields_win(mode: str, make_engine: Any, workspace: Path) -> None:
    engine = make_engine(claude("PreToolUse", 'cat > "$CLAUDE_PROJECT_DIR/payload.json"'))
    kwargs = dict(tool_name="Bash", extra={"permission_mode": "plan", "tool_name": "Edit"})
    if mode == "sync":
        engine.pre_tool_use(**kwargs)
    else:
        asyncio.run(engine.pre_tool_use_async(**kwargs))
    payload = json.loads((workspace / "payload.json").read_text())
    assert payload["permission_mode"] == "plan"
    assert payload["tool_name"] == "Bash"


def test_an_event_no_hook_matches_returns_the_empty_outcome_without_running_anything(make_engine: Any) -> None:
    engine = make_engine(claude("PreToolUse", "exit 0", matcher="Bash"))
    o = engine.pre_tool_use(tool_name="Edit", tool_input={"path": "a"})
    assert (o.decision, o.hooks, o.messages, o.continue_) == ("continue", [], [], True)
    o = asyncio.run(engine.pre_tool_use_async(tool_name="Edit"))
    assert (o.decision, o.hooks) == ("continue", [])
    assert o.raw["decision"] == "continue"


def test_run_takes_an_event_by_enum_name_or_config_key(make_engine: Any) -> None:
    engine = make_engine(claude("Stop", _json({"decision": "block", "reason": "more"})))
    inp = {"last_assistant_message": "x", "stop_hook_active": False}
    for event in (hookline.HookEvent.STOP, "Stop", "stop", 9):
        o = engine.run(event, inp)
        assert isinstance(o, hookline.StopOutcome) and o.block_reason == "more"
    o = asyncio.run(engine.run_async("Stop", inp))
    assert isinstance(o, hookline.StopOutcome) and o.block_reason == "more"


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_run_named_fires_an_event_unknown_to_the_enum_with_observer_rules(
    mode: str, make_engine: Any, workspace: Path
) -> None:
    # A key Claude Code does not have (its own events, such as PostCompact, have their own rules).
    engine = make_engine(claude("FutureEvent", f'cat > "$CLAUDE_PROJECT_DIR/payload.json"; {_json({"systemMessage": "compacted"})}', matcher="auto"))
    inp = {"matcher_value": "auto", "summary": "short"}
    if mode == "sync":
        o = engine.run_named("FutureEvent", inp)
    else:
        o = asyncio.run(engine.run_named_async("FutureEvent", inp))
    assert type(o) is hookline.Outcome
    assert [(m.level, m.text) for m in o.messages] == [("info", "compacted")]
    assert json.loads((workspace / "payload.json").read_text())["hook_event_name"] == "FutureEvent"
    # The matcher is tested against matcher_value: another value runs nothing.
    o = engine.run_named("FutureEvent", {"matcher_value": "manual"})
    assert o.hooks == []


def test_run_named_of_a_known_event_keeps_its_rules_and_outcome_type(make_engine: Any) -> None:
    engine = make_engine(claude("PreToolUse", "echo no >&2; exit 2"))
    o = engine.run_named("PreToolUse", {"tool_name": "Bash"})
    assert isinstance(o, hookline.PreToolUseOutcome)
    assert (o.decision, o.reason) == ("deny", "no")


def test_a_vtcode_config_gets_the_vtcode_rules(make_engine: Any) -> None:
    from conftest import vtcode

    engine = make_engine(vtcode("pre_tool_use", "echo 'recursive delete' >&2; exit 2", matcher="Bash", timeout_seconds=10))
    o = engine.pre_tool_use(tool_name="Bash", tool_input={"command": "rm -rf /"})
    assert (o.decision, o.reason) == ("deny", "recursive delete")
    assert o.hooks[0].exit_code == 2


def test_session_start_env_file_lines_come_back_in_the_outcome(make_engine: Any) -> None:
    engine = make_engine(claude("SessionStart", "echo 'export HL_PY_TEST=yes' >> \"$CLAUDE_ENV_FILE\""))
    o = engine.session_start()
    assert o.env == {"HL_PY_TEST": "yes"}


def test_hook_reports_name_how_a_hook_failed(make_engine: Any) -> None:
    engine = make_engine(claude("PreToolUse", "sleep 5", timeout=1))
    o = engine.pre_tool_use(tool_name="Bash")
    (report,) = o.hooks
    assert (report.timed_out, report.exit_code, report.failure) == (True, None, "timeout")
    assert any("timed out" in m.text for m in o.messages)
