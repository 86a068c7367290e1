"""The registry (agy-bridge's Hooks): every row of the hook-point tables, through Python callbacks.

The rules themselves are the library's; these tests prove that Python callbacks, their return
values and their exceptions reach them as the seed's SDK describes.
"""

from __future__ import annotations

from typing import Any, List

import pytest

import hookline
from hookline import (
    CompactionContext,
    HookPoint,
    HookResult,
    Hooks,
    InteractionContext,
    PostToolCallContext,
    PostTurnContext,
    PreToolCallDecideContext,
    PreTurnContext,
    SessionContext,
    SessionInfo,
    ToolErrorContext,
)


@pytest.fixture
def hooks() -> Any:
    h = Hooks()
    yield h
    h.close()


def test_hook_result_allow_and_deny_read_like_the_seed() -> None:
    assert HookResult.allow().allow is True
    assert HookResult.allow().message == ""
    d = HookResult.deny("nope")
    assert (d.allow, d.message, d.modified_args) == (False, "nope", None)
    assert HookResult.allow("ok").message == "ok"
    assert HookResult.allow().with_modified_args({"a": 1}).modified_args == {"a": 1}
    assert HookResult.deny("x") == HookResult(False, "x")
    with pytest.raises(AttributeError):
        d.message = "changed"  # type: ignore[misc]


def test_decorators_register_and_return_the_function(hooks: Hooks) -> None:
    @hooks.on_pre_turn("logger")
    def logger(ctx: PreTurnContext) -> None:
        return None

    @hooks.on_pre_tool_call_decide("gate")
    def gate(ctx: PreToolCallDecideContext) -> HookResult:
        return HookResult.allow()

    assert callable(logger) and logger.__name__ == "logger"
    assert [(e.name, e.point) for e in hooks.entries()] == [("logger", "pre_turn"), ("gate", "pre_tool_call_decide")]


def test_fluent_with_forms_chain_in_registration_order() -> None:
    h = (
        Hooks()
        .with_pre_turn("a", lambda c: None)
        .with_post_turn("b", lambda c: None)
        .with_pre_tool_call_decide("c", lambda c: None)
        .with_transform_tool_input("d", lambda c: None)
        .with_post_tool_call("e", lambda c: None)
        .with_tool_error("f", lambda c: None)
        .with_session_start("g", lambda c: None)
        .with_session_end("h", lambda c: None)
        .with_compaction("i", lambda c: None)
        .with_interaction("j", lambda c: None)
    )
    entries = h.entries()
    assert [e.name for e in entries] == list("abcdefghij")
    assert [e.point for e in entries] == [
        "pre_turn", "post_turn", "pre_tool_call_decide", "transform_tool_input", "post_tool_call",
        "on_tool_error", "on_session_start", "on_session_end", "on_compaction", "on_interaction",
    ]
    assert all(e.callback_id == e.name for e in entries)
    h.close()


def test_callbacks_at_a_point_run_in_registration_order(hooks: Hooks) -> None:
    seen: List[str] = []
    for name in ("first", "second", "third"):
        hooks.on_post_turn(name, lambda c, n=name: seen.append(n))
    r = hooks.run_post_turn(PostTurnContext("answer", 1))
    assert seen == ["first", "second", "third"]
    assert (r.allow, r.message, r.tool_args, r.errors) == (True, "", None, [])


def test_registering_an_existing_name_replaces_it_in_place(hooks: Hooks) -> None:
    seen: List[str] = []
    hooks.on_post_turn("a", lambda c: seen.append("a1"))
    hooks.on_post_turn("b", lambda c: seen.append("b"))
    hooks.on_post_turn("a", lambda c: seen.append("a2"))
    hooks.run_post_turn(PostTurnContext("x", 1))
    assert seen == ["a2", "b"]
    assert [e.name for e in hooks.entries()] == ["a", "b"]


def test_a_transform_and_a_decide_callback_may_share_a_name(hooks: Hooks) -> None:
    hooks.on_pre_tool_call_decide("same", lambda c: HookResult.allow())
    hooks.on_transform_tool_input("same", lambda c: {"x": 1})
    assert [(e.name, e.point) for e in hooks.entries()] == [
        ("same", "pre_tool_call_decide"),
        ("same", "transform_tool_input"),
    ]


@pytest.mark.parametrize("name", ["", "   ", "\t\n"])
def test_a_blank_name_is_invalid_argument(hooks: Hooks, name: str) -> None:
    with pytest.raises(hookline.InvalidArgumentError) as e:
        hooks.on_pre_turn(name, lambda c: None)
    assert e.value.status == hookline.Status.INVALID_ARGUMENT
    assert hooks.entries() == []


def test_a_failed_registration_keeps_no_callback_alive(hooks: Hooks) -> None:
    before = hookline._callbacks.handler_count()
    with pytest.raises(hookline.InvalidArgumentError):
        hooks.on_post_turn(" ", lambda c: None)
    assert hookline._callbacks.handler_count() == before


def test_unregister_removes_and_reports_absence(hooks: Hooks) -> None:
    seen: List[str] = []
    hooks.on_post_turn("a", lambda c: seen.append("a"))
    assert hooks.unregister("post_turn", "a") is True
    assert hooks.unregister(HookPoint.POST_TURN, "a") is False
    hooks.run_post_turn(PostTurnContext("x", 1))
    assert seen == [] and hooks.entries() == []


def test_decide_the_first_deny_stops_the_run_and_is_the_result(hooks: Hooks) -> None:
    seen: List[str] = []

    @hooks.on_pre_tool_call_decide("allow-all")
    def allow_all(c: PreToolCallDecideContext) -> HookResult:
        seen.append("allow-all")
        return HookResult.allow()

    @hooks.on_pre_tool_call_decide("no-bash")
    def no_bash(c: PreToolCallDecideContext) -> HookResult:
        seen.append("no-bash")
        return HookResult.deny("no shell") if c.tool_name == "Bash" else HookResult.allow()

    @hooks.on_pre_tool_call_decide("never-reached")
    def never(c: PreToolCallDecideContext) -> HookResult:
        seen.append("never-reached")
        return HookResult.allow()

    r = hooks.run_pre_tool_call_decide(PreToolCallDecideContext("Bash", {"command": "ls"}))
    assert (r.allow, r.message) == (False, "no shell")
    assert seen == ["allow-all", "no-bash"]


def test_modified_args_merge_into_the_args_later_callbacks_see(hooks: Hooks) -> None:
    seen: List[Any] = []
    hooks.on_pre_tool_call_decide("add-flag", lambda c: HookResult.allow().with_modified_args({"flag": True}))
    hooks.on_pre_tool_call_decide("look", lambda c: seen.append(c.tool_args))
    r = hooks.run_pre_tool_call_decide(PreToolCallDecideContext("Bash", {"command": "ls", "flag": False}))
    assert seen == [{"command": "ls", "flag": True}]
    assert r.allow and r.tool_args == {"command": "ls", "flag": True}


def test_a_denying_reply_s_modified_args_are_merged_before_the_run_stops(hooks: Hooks) -> None:
    hooks.on_pre_tool_call_decide("deny", lambda c: HookResult.deny("no").with_modified_args({"x": 2}))
    r = hooks.run_pre_tool_call_decide(PreToolCallDecideContext("T", {"x": 1, "y": 1}))
    assert (r.allow, r.message, r.tool_args) == (False, "no", {"x": 2, "y": 1})


def test_an_exception_at_pre_tool_call_decide_denies_fail_closed(hooks: Hooks) -> None:
    failures: List[Any] = []
    h = Hooks(on_callback_error=lambda e, info: failures.append((type(e).__name__, info.name, info.kind)))
    seen: List[str] = []

    @h.on_pre_tool_call_decide("broken")
    def broken(c: PreToolCallDecideContext) -> HookResult:
        raise RuntimeError("bug")

    h.on_pre_tool_call_decide("after", lambda c: seen.append("after"))
    r = h.run_pre_tool_call_decide(PreToolCallDecideContext("Bash"))
    assert r.allow is False
    assert "hook 'broken' failed" in r.message
    assert [e.name for e in r.errors] == ["broken"] and "hook 'broken' failed" in r.errors[0].message
    assert seen == []
    assert failures == [("RuntimeError", "broken", "decide")]
    h.close()


def test_an_exceptions_text_is_the_failure_reason(hooks: Hooks) -> None:
    @hooks.on_pre_tool_call_decide("boom")
    def boom(c: PreToolCallDecideContext) -> HookResult:
        raise RuntimeError("policy file unreadable")

    r = hooks.run_pre_tool_call_decide(PreToolCallDecideContext("Bash"))
    assert (r.allow, r.message) == (False, "hook 'boom' failed: policy file unreadable")
    assert r.errors[0].message == "hook 'boom' failed: policy file unreadable"
    # An exception without text: its class name.
    hooks.on_post_turn("quiet", lambda c: (_ for _ in ()).throw(KeyboardInterrupt()))
    hooks.on_post_turn("zero", lambda c: 1 / 0)
    r = hooks.run_post_turn(PostTurnContext("done", 1))
    assert [e.message for e in r.errors] == ["hook 'quiet' failed: KeyboardInterrupt", "hook 'zero' failed: division by zero"]


def test_an_exception_at_pre_turn_is_listed_and_the_next_callback_runs(hooks: Hooks) -> None:
    @hooks.on_pre_turn("broken")
    def broken(c: PreTurnContext) -> HookResult:
        raise ValueError("bug")

    hooks.on_pre_turn("gate", lambda c: HookResult.deny("too long") if len(c.prompt) > 3 else None)
    r = hooks.run_pre_turn(PreTurnContext("hello", 1))
    assert (r.allow, r.message) == (False, "too long")
    assert [e.name for e in r.errors] == ["broken"]


def test_an_exception_at_on_interaction_never_blocks(hooks: Hooks) -> None:
    hooks.on_interaction("broken", lambda c: 1 / 0)
    r = hooks.run_on_interaction(InteractionContext("hi"))
    assert r.allow is True and [e.name for e in r.errors] == ["broken"]
    hooks.on_interaction("deny", lambda c: HookResult.deny("quiet"))
    r = hooks.run_on_interaction(InteractionContext("hi"))
    assert (r.allow, r.message) == (False, "quiet")


def test_transforms_chain_each_seeing_the_previous_result(hooks: Hooks) -> None:
    hooks.on_transform_tool_input("add-a", lambda c: {**c.tool_args, "a": 1})
    hooks.on_transform_tool_input("keep", lambda c: None)  # None keeps the args
    hooks.on_transform_tool_input("add-b", lambda c: {**c.tool_args, "b": c.tool_args["a"] + 1})
    r = hooks.run_transform_tool_input(PreToolCallDecideContext("T", {"x": 0}))
    assert r.tool_args == {"x": 0, "a": 1, "b": 2}


def test_a_failing_transform_keeps_the_args_and_is_listed(hooks: Hooks) -> None:
    hooks.on_transform_tool_input("broken", lambda c: c.tool_args["missing"])
    hooks.on_transform_tool_input("set-null", lambda c: hookline.reply_json(None))
    r = hooks.run_transform_tool_input(PreToolCallDecideContext("T", {"x": 1}))
    assert r.tool_args is None  # set to JSON null by the second transform
    assert [e.name for e in r.errors] == ["broken"]
    hooks.unregister("transform_tool_input", "set-null")
    r = hooks.run_transform_tool_input(PreToolCallDecideContext("T", {"x": 1}))
    assert r.tool_args == {"x": 1}


def test_observers_all_run_and_failures_are_listed(hooks: Hooks) -> None:
    seen: List[Any] = []
    hooks.on_post_tool_call("one", lambda c: seen.append(("one", c.tool_name, c.result, c.metadata)))
    hooks.on_post_tool_call("broken", lambda c: [][1])
    hooks.on_post_tool_call("two", lambda c: seen.append(("two", c.tool_args)))
    r = hooks.run_post_tool_call(PostToolCallContext("Read", "contents", {"path": "a"}, metadata={"ms": 3}))
    assert seen == [("one", "Read", "contents", {"ms": 3}), ("two", {"path": "a"})]
    assert r.allow is True and [e.name for e in r.errors] == ["broken"]


def test_every_observer_point_delivers_its_typed_context(hooks: Hooks) -> None:
    seen: List[Any] = []
    hooks.on_tool_error("e", lambda c: seen.append(("error", c.tool_name, c.error)))
    hooks.on_session_start("s", lambda c: seen.append(("start", c.session.session_id, c.session.agent_id, c.session.started_at)))
    hooks.on_session_end("t", lambda c: seen.append(("end", c.session.session_id)))
    hooks.on_compaction("c", lambda c: seen.append(("compaction", c.extra)))
    hooks.on_post_turn("p", lambda c: seen.append(("post_turn", c.response_text, c.turn_number)))
    hooks.run_on_tool_error(ToolErrorContext("Bash", "exit 1"))
    hooks.run_on_session_start(SessionContext(SessionInfo("s-1", 7, started_at="2025-01-01")))
    hooks.run_on_session_end(SessionContext(SessionInfo("s-1", 7)))
    hooks.run_on_compaction(CompactionContext({"kept": 3}))
    hooks.run_post_turn(PostTurnContext("answer", 2))
    assert seen == [
        ("error", "Bash", "exit 1"),
        ("start", "s-1", 7, "2025-01-01"),
        ("end", "s-1"),
        ("compaction", {"kept": 3}),
        ("post_turn", "answer", 2),
    ]


def test_aliases_name_and_args_reach_callbacks_canonical_and_extra_fields_are_kept(hooks: Hooks) -> None:
    seen: List[Any] = []
    hooks.on_pre_tool_call_decide("look", lambda c: seen.append((c.tool_name, c.tool_args, c.extra)))
    hooks.run("pre_tool_call_decide", {"name": "Read", "args": {"path": "x"}, "trace": "t-1"})
    hooks.run("pre_tool_call_decide", {"tool_name": "Edit", "name": "ignored", "tool_args": 1, "args": 2})
    assert seen == [("Read", {"path": "x"}, {"trace": "t-1"}), ("Edit", 1, {})]


@pytest.mark.parametrize(
    "point, context, field",
    [
        ("pre_turn", {"turn_number": 1}, "prompt"),
        ("pre_turn", {"prompt": "p", "turn_number": -1}, "turn_number"),
        ("post_turn", {"response_text": "r"}, "turn_number"),
        ("pre_tool_call_decide", {"tool_args": {}}, "tool_name"),
        ("transform_tool_input", {"tool_name": 3}, "tool_name"),
        ("post_tool_call", {"tool_name": "T"}, "result"),
        ("on_tool_error", {"tool_name": "T"}, "error"),
        ("on_session_start", {"session": {"session_id": "s"}}, "agent_id"),
        ("on_session_end", {}, "session"),
        ("on_interaction", {}, "message"),
    ],
)
def test_a_missing_or_mistyped_required_field_is_invalid_argument_naming_it(
    hooks: Hooks, point: str, context: Any, field: str
) -> None:
    with pytest.raises(hookline.InvalidArgumentError) as e:
        hooks.run(point, context)
    assert field in e.value.message


def test_on_compaction_needs_no_field(hooks: Hooks) -> None:
    assert hooks.run("on_compaction").allow is True


def test_a_decide_callback_may_return_bool_none_or_a_raw_reply(hooks: Hooks) -> None:
    hooks.on_pre_tool_call_decide("t", lambda c: True)
    hooks.on_pre_tool_call_decide("none", lambda c: None)
    hooks.on_pre_tool_call_decide("raw", lambda c: {"allow": c.tool_name != "X", "message": "raw says no"})
    assert hooks.run_pre_tool_call_decide(PreToolCallDecideContext("A")).allow is True
    r = hooks.run_pre_tool_call_decide(PreToolCallDecideContext("X"))
    assert (r.allow, r.message) == (False, "raw says no")
    hooks.on_pre_tool_call_decide("f", lambda c: False)
    assert hooks.run_pre_tool_call_decide(PreToolCallDecideContext("A")).allow is False


def test_an_invalid_decide_reply_is_a_failure(hooks: Hooks) -> None:
    hooks.on_pre_tool_call_decide("bad", lambda c: {"allow": "yes"})
    r = hooks.run_pre_tool_call_decide(PreToolCallDecideContext("A"))
    assert r.allow is False and "hook 'bad' failed" in r.message and "invalid reply" in r.message


def test_an_async_callback_is_refused_as_a_failure(hooks: Hooks) -> None:
    async def gate(c: Any) -> HookResult:
        return HookResult.allow()

    failures: List[BaseException] = []
    h = Hooks(on_callback_error=lambda e, info: failures.append(e))
    h.on_pre_tool_call_decide("async", gate)  # type: ignore[arg-type]
    r = h.run_pre_tool_call_decide(PreToolCallDecideContext("A"))
    assert r.allow is False
    assert isinstance(failures[0], TypeError) and "synchronous" in str(failures[0])
    h.close()


def test_a_callback_may_run_and_change_its_own_registry(hooks: Hooks) -> None:
    inner: List[Any] = []

    @hooks.on_pre_turn("outer")
    def outer(c: PreTurnContext) -> None:
        hooks.on_post_turn("added-inside", lambda c: inner.append(c.response_text))
        inner.append(hooks.run_post_turn(PostTurnContext("nested", 1)).allow)

    hooks.run_pre_turn(PreTurnContext("p", 1))
    assert inner == ["nested", True]


def test_closing_releases_every_callback_and_later_calls_are_closed_error() -> None:
    before = hookline._callbacks.handler_count()
    h = Hooks()
    for i in range(5):
        h.on_post_turn(f"n{i}", lambda c: None)
    assert hookline._callbacks.handler_count() == before + 5
    h.close()
    h.close()
    assert hookline._callbacks.handler_count() == before
    assert h.closed
    with pytest.raises(hookline.ClosedError):
        h.run_post_turn(PostTurnContext("x", 1))
    with pytest.raises(hookline.ClosedError):
        h.entries()


def test_registry_is_hooks_and_works_as_a_context_manager() -> None:
    assert hookline.Registry is Hooks
    with hookline.Registry() as r:
        r.on_pre_turn("x", lambda c: HookResult.deny("no"))
        assert r.run_pre_turn(PreTurnContext("p", 1)).allow is False
    assert r.closed


def test_a_plain_allow_reads_as_the_full_result_would(hooks: Hooks) -> None:
    # The library writes no result for a run that says nothing beyond "allowed"
    # (hl_registry_run_brief): the binding's RunResult is the one the full JSON gives, a fresh one
    # per run.
    from hookline._types import RunResult

    hooks.on_pre_tool_call_decide("allow", lambda ctx: HookResult.allow())
    ctx = PreToolCallDecideContext("run_command", {"command": "ls"})
    first = hooks.run_pre_tool_call_decide(ctx)
    full = RunResult.from_json({"allow": True, "message": "", "tool_args": None, "errors": []})
    assert first == full and first.errors == [] and first.answer is None
    first.errors.append(hookline.CallbackError("x", "y"))
    assert hooks.run_pre_tool_call_decide(ctx) == full
    # Anything else is still read from the library's JSON.
    hooks.on_pre_tool_call_decide("deny", lambda ctx: HookResult.deny("no"))
    denied = hooks.run_pre_tool_call_decide(ctx)
    assert (denied.allow, denied.message) == (False, "no")
