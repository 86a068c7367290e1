"""hookline.antigravity: the Antigravity Python SDK's HookRunner, every hook run by hookline.

The first test runs the SDK's own hook tests, as they ship inside its wheel
(google/antigravity/hooks/hook_runner_test.py and hooks_test.py), unchanged, with the SDK's
``hook_runner.HookRunner`` replaced by :class:`hookline.antigravity.HookRunner`. The others cover
what those tests do not: hooks that really suspend, exceptions, answers that are not JSON, hooks
registered later, and a runner used from several threads.
"""

from __future__ import annotations

import asyncio
import gc
import importlib
import threading
import unittest
from typing import Any, List

import pytest

from google.antigravity import types
from google.antigravity.hooks import hook_runner, hooks

import hookline
from hookline.antigravity import HookRunner

SDK_TEST_MODULES = ["google.antigravity.hooks.hook_runner_test", "google.antigravity.hooks.hooks_test"]


@pytest.fixture(autouse=True)
def _runners_released() -> Any:
    """Each runner's registry (and its callback entries) is released when the runner is collected:
    collect them here, so that later tests count the binding's live callbacks from zero."""
    yield
    gc.collect()


def test_the_sdks_own_hook_tests_pass_against_the_drop_in(monkeypatch: pytest.MonkeyPatch) -> None:
    made: List[Any] = []

    class Counted(HookRunner):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            made.append(self)

    monkeypatch.setattr(hook_runner, "HookRunner", Counted)
    suite = unittest.TestSuite()
    for name in SDK_TEST_MODULES:
        suite.addTests(unittest.defaultTestLoader.loadTestsFromModule(importlib.import_module(name)))
    result = unittest.TestResult()
    suite.run(result)
    problems = [f"{t}: {tb}" for t, tb in result.failures + result.errors]
    assert problems == [], "\n".join(problems)
    assert result.testsRun >= 60 and not result.skipped, (result.testsRun, result.skipped)
    assert len(made) >= 20, "the SDK's tests did not use the drop-in"


def _call(args: Any = None) -> Any:
    return types.ToolCall(name="run_command", args=args if args is not None else {"cmd": "rm -rf /"})


@pytest.mark.asyncio
async def test_hooks_that_suspend_run_once_each_in_order() -> None:
    seen: List[Any] = []

    class Slow(hooks.PreToolCallDecideHook):
        def __init__(self, name: str, result: Any) -> None:
            self.name, self.result = name, result

        async def run(self, context: Any, data: Any) -> Any:
            seen.append((self.name, dict(data.args)))
            await asyncio.sleep(0.001)  # really suspends: finishes on the event loop
            return self.result

    runner = HookRunner(
        pre_tool_call_decide_hooks=[
            Slow("a", hooks.HookResult(allow=True, modified_args={"cmd": "echo safe"})),
            Slow("b", hooks.HookResult(allow=True, message="audited")),
            Slow("c", hooks.HookResult(allow=False, message="no")),
            Slow("d", hooks.HookResult(allow=True)),
        ]
    )
    turn = hooks.TurnContext(runner.session_context)
    res, call, op = await runner.dispatch_pre_tool_call(turn, _call())
    assert seen == [("a", {"cmd": "rm -rf /"}), ("b", {"cmd": "echo safe"}), ("c", {"cmd": "echo safe"})]
    assert (res.allow, res.message) == (False, "no")
    assert call.args == {"cmd": "echo safe"}
    assert isinstance(op, hooks.OperationContext)


@pytest.mark.asyncio
async def test_an_allowed_call_keeps_the_last_allowing_message_and_the_merged_args() -> None:
    @hooks.pre_tool_call_decide
    async def modify(data: Any) -> Any:
        return hooks.HookResult(allow=True, modified_args={"b": 20})

    @hooks.pre_tool_call_decide
    def audit(data: Any) -> Any:  # a plain function works as well
        return hooks.HookResult(allow=True, message="Audited by policy")

    runner = HookRunner(hooks=[modify, audit])
    res, call, _ = await runner.dispatch_pre_tool_call(hooks.TurnContext(runner.session_context), _call({"a": 1}))
    assert (res.allow, res.message, res.modified_args) == (True, "Audited by policy", {"a": 1, "b": 20})
    assert call.args == {"a": 1, "b": 20}


@pytest.mark.asyncio
async def test_an_exception_propagates_and_later_hooks_do_not_run() -> None:
    ran: List[str] = []

    @hooks.pre_tool_call_decide
    async def boom(data: Any) -> Any:
        ran.append("boom")
        raise RuntimeError("policy file unreadable")

    @hooks.pre_tool_call_decide
    async def later(data: Any) -> Any:
        ran.append("later")
        return hooks.HookResult(allow=True)

    runner = HookRunner(pre_tool_call_decide_hooks=[boom, later])
    with pytest.raises(RuntimeError, match="policy file unreadable"):
        await runner.dispatch_pre_tool_call(hooks.TurnContext(runner.session_context), _call())
    assert ran == ["boom"]


@pytest.mark.asyncio
async def test_error_recovery_answers_any_object_and_a_suspended_failure_is_recovery_failed() -> None:
    answer = object()  # not JSON: hookline is told which hook answered, the host gets the object

    class Recover(hooks.OnToolErrorHook):
        async def run(self, context: Any, data: Any) -> Any:
            await asyncio.sleep(0)
            return answer

    runner = HookRunner(on_tool_error_hooks=[Recover()])
    op = hooks.OperationContext(hooks.TurnContext(runner.session_context))
    res, value = await runner.dispatch_on_tool_error(op, ValueError("Error"))
    assert res.allow and value is answer

    class Fails(hooks.OnToolErrorHook):
        async def run(self, context: Any, data: Any) -> Any:
            await asyncio.sleep(0)
            raise ValueError("disk full")

    runner = HookRunner(on_tool_error_hooks=[Fails(), Recover()])
    res, value = await runner.dispatch_on_tool_error(op, ValueError("Error"))
    assert (res.allow, res.message, value) == (False, "Error recovery failed: disk full", None)


@pytest.mark.asyncio
async def test_stop_interaction_and_prompts() -> None:
    prompts: List[Any] = []

    @hooks.pre_turn
    async def record(data: Any) -> Any:
        prompts.append(data)
        return hooks.HookResult(allow=True)

    @hooks.stop
    async def more(data: Any) -> Any:
        return types.StopHookResult(decision=types.StopDecision.CONTINUE, reason=f"again after {data.response_text}")

    @hooks.on_interaction
    async def answer(data: Any) -> Any:
        return types.QuestionHookResult(responses=[]) if data == "q" else None

    runner = HookRunner(hooks=[record, more, answer])
    await runner.dispatch_pre_turn(None)
    await runner.dispatch_pre_turn(["image", "text"])
    assert prompts == ["", ["image", "text"]]
    turn = hooks.TurnContext(runner.session_context)
    res = await runner.dispatch_stop(turn, types.StopArgs(response_text="done"))
    assert (res.decision, res.reason) == (types.StopDecision.CONTINUE, "again after done")
    ok, value, _ = await runner.dispatch_interaction(turn, "q")
    assert ok.allow and value == types.QuestionHookResult(responses=[])
    no, value, _ = await runner.dispatch_interaction(turn, "other")
    assert (no.allow, no.message, value) == (False, "No interaction hook handled the request", None)


@pytest.mark.asyncio
async def test_hooks_registered_later_run_in_registration_order() -> None:
    order: List[str] = []

    def hook(name: str) -> Any:
        @hooks.post_turn
        async def h(data: Any) -> None:
            order.append(name)

        return h

    runner = HookRunner(post_turn_hooks=[hook("first")])
    turn = hooks.TurnContext(runner.session_context)
    await runner.dispatch_post_turn(turn, "r")
    runner.register_hook(hook("second"))
    await runner.dispatch_post_turn(turn, "r")
    assert order == ["first", "first", "second"]
    assert runner.has_hooks and len(runner.post_turn_hooks) == 2


def test_one_runner_dispatches_from_several_threads_at_once() -> None:
    @hooks.pre_tool_call_decide
    async def gate(data: Any) -> Any:
        await asyncio.sleep(0)
        return hooks.HookResult(allow=data.args["n"] % 2 == 0, message=str(data.args["n"]))

    runner = HookRunner(pre_tool_call_decide_hooks=[gate])
    wrong: List[Any] = []

    def work(base: int) -> None:
        async def many() -> None:
            turn = hooks.TurnContext(runner.session_context)
            for n in range(base, base + 200):
                res, _, _ = await runner.dispatch_pre_tool_call(turn, _call({"n": n}))
                if res.allow != (n % 2 == 0) or (not res.allow and res.message != str(n)):
                    wrong.append((n, res))

        asyncio.run(many())

    threads = [threading.Thread(target=work, args=(i * 1000,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert wrong == [] and not any(t.is_alive() for t in threads)


def test_the_package_does_not_need_the_sdk() -> None:
    # hookline itself never imports the SDK: only hookline.antigravity does.
    assert "antigravity" not in hookline.__dict__ or hookline.__dict__["antigravity"].__name__ == "hookline.antigravity"


@pytest.mark.asyncio
async def test_each_hook_registration_is_released_with_its_runner() -> None:
    # Every hook is one registration of the module's trampoline; hookline's free_user_data call
    # drops it when the registration ends (replaced by a re-sync, or the registry freed).
    from hookline import antigravity as ag

    gc.collect()
    before = len(ag._hook_runs)

    @hooks.pre_tool_call_decide
    async def allow(data: Any) -> Any:
        return hooks.HookResult(allow=True)

    runner = HookRunner(pre_tool_call_decide_hooks=[allow, allow])
    turn = hooks.TurnContext(runner.session_context)
    res, _, _ = await runner.dispatch_pre_tool_call(turn, _call())
    assert res.allow and len(ag._hook_runs) == before + 2
    runner.register_hook(allow)
    res, _, _ = await runner.dispatch_pre_tool_call(turn, _call())
    assert res.allow and len(ag._hook_runs) == before + 3  # the two earlier ones were released
    del runner, turn
    gc.collect()
    assert len(ag._hook_runs) == before


def test_a_hook_run_outside_a_dispatch_denies() -> None:
    # The registry may be run directly (here through the plain C call): the hooks have no
    # dispatch to answer for, and the tool call is denied (fail closed), not allowed.
    import ctypes
    import json

    from hookline import _native as N

    @hooks.pre_tool_call_decide
    async def allow(data: Any) -> Any:
        return hooks.HookResult(allow=True)

    runner = HookRunner(pre_tool_call_decide_hooks=[allow])
    runner._sync(2, runner._pre_tool_call_decide_hooks)
    out, err = ctypes.c_void_p(), ctypes.c_void_p()
    N.check(N.hl_registry_run(runner._ptr, 2, b'{"tool_name":"t"}', ctypes.byref(out), ctypes.byref(err)), err)
    result = json.loads(N.take_bytes(out.value) or b"{}")
    assert result["allow"] is False
    assert "the hook runs outside a dispatch" in result["message"]
