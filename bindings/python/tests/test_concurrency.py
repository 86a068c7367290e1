"""Threads, the GIL, cancellation and close with runs in flight (run these many times: make
stress-style loops, see the package README)."""

from __future__ import annotations

import asyncio
import gc
import os
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path
from typing import Any, List

import pytest

import hookline
from hookline import HookResult, PreToolCallDecideContext
from hookline._callbacks import handler_count, pending_run_count
from conftest import claude, pid_alive

SLEEPER = 'echo $$ >> "$CLAUDE_PROJECT_DIR/pids"; exec sleep 30'


def _pids(workspace: Path, n: int, timeout: float = 20.0) -> List[int]:
    """Wait until n hooks wrote their pid."""
    deadline = time.monotonic() + timeout
    path = workspace / "pids"
    while time.monotonic() < deadline:
        if path.exists():
            pids = [int(x) for x in path.read_text().split()]
            if len(pids) >= n:
                return pids
        time.sleep(0.01)
    raise AssertionError(f"{n} hooks did not start")


async def _apids(workspace: Path, n: int) -> List[int]:
    return await asyncio.get_running_loop().run_in_executor(None, _pids, workspace, n)


def _dead(pids: List[int], timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not any(pid_alive(p) for p in pids):
            return True
        time.sleep(0.01)
    return False


def test_callbacks_from_hookline_threads_take_the_gil(make_engine: Any) -> None:
    engine = make_engine()
    main = threading.get_ident()
    threads: List[int] = []
    counter = {"n": 0}

    def hook(payload: Any) -> Any:
        threads.append(threading.get_ident())
        n = counter["n"]  # a read-modify-write of Python state: safe only under the GIL
        counter["n"] = n + 1
        return {"systemMessage": payload["tool_input"]["i"]}

    engine.add_callback_hook("PostToolUse", "count", hook)

    async def main_coro() -> List[Any]:
        return await asyncio.gather(
            *(engine.post_tool_use_async(tool_name="T", tool_input={"i": str(i)}, tool_response=None) for i in range(200))
        )

    outcomes = asyncio.run(main_coro())
    assert [o.messages[0].text for o in outcomes] == [str(i) for i in range(200)]
    assert counter["n"] == 200
    assert main not in threads


def test_blocking_runs_from_many_python_threads_at_once(make_engine: Any) -> None:
    engine = make_engine()
    engine.add_callback_hook("PreToolUse", "echo", lambda p: HookResult.deny(p["tool_input"]["who"]))
    errors: List[BaseException] = []

    def worker(t: int) -> None:
        try:
            for i in range(50):
                o = engine.pre_tool_use(tool_name="Bash", tool_input={"who": f"{t}-{i}"})
                assert o.reason == f"{t}-{i}"
        except BaseException as e:
            errors.append(e)

    threads = [threading.Thread(target=worker, args=(t,)) for t in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


def test_async_runs_from_event_loops_on_several_threads(make_engine: Any) -> None:
    engine = make_engine(claude("PostToolUse", "echo '{\"systemMessage\":\"cmd\"}'"))
    results: List[int] = []

    def worker() -> None:
        async def go() -> int:
            outs = await asyncio.gather(*(engine.post_tool_use_async(tool_name="T", tool_response=i) for i in range(10)))
            return sum(1 for o in outs if o.messages[0].text == "cmd")

        results.append(asyncio.run(go()))

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [10, 10, 10, 10]


def test_registry_runs_and_registrations_on_many_threads_at_once() -> None:
    hooks = hookline.Hooks()
    hooks.on_pre_tool_call_decide("base", lambda c: HookResult.deny("no") if c.tool_name == "X" else None)
    errors: List[BaseException] = []
    stop = threading.Event()

    def runner() -> None:
        try:
            while not stop.is_set():
                r = hooks.run_pre_tool_call_decide(PreToolCallDecideContext("X"))
                assert (r.allow, r.message) == (False, "no")
        except BaseException as e:
            errors.append(e)

    def registrar(k: int) -> None:
        try:
            for i in range(200):
                hooks.on_pre_tool_call_decide(f"r{k}-{i % 5}", lambda c: None)
                if i % 3 == 0:
                    hooks.unregister("pre_tool_call_decide", f"r{k}-{(i + 1) % 5}")
        except BaseException as e:
            errors.append(e)

    runners = [threading.Thread(target=runner) for _ in range(3)]
    registrars = [threading.Thread(target=registrar, args=(k,)) for k in range(3)]
    for t in runners + registrars:
        t.start()
    for t in registrars:
        t.join()
    stop.set()
    for t in runners:
        t.join()
    hooks.close()
    assert errors == []


@pytest.mark.asyncio
async def test_cancelling_the_task_cancels_the_run_and_kills_its_hook(make_engine: Any, workspace: Path) -> None:
    engine = make_engine(claude("PreToolUse", SLEEPER))
    task = asyncio.ensure_future(engine.pre_tool_use_async(tool_name="Bash"))
    (pid,) = await _apids(workspace, 1)
    assert pid_alive(pid)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await asyncio.wait_for(task, 20)
    assert _dead([pid])  # hl_engine_cancel killed the hook's process group
    assert pending_run_count() == 0


@pytest.mark.asyncio
async def test_a_timeout_around_the_run_cancels_it(make_engine: Any, workspace: Path) -> None:
    engine = make_engine(claude("PreToolUse", SLEEPER))
    with pytest.raises(asyncio.TimeoutError):
        await asyncio.wait_for(engine.pre_tool_use_async(tool_name="Bash"), 0.5)
    assert _dead(_pids(workspace, 1))
    assert pending_run_count() == 0


@pytest.mark.asyncio
async def test_cancel_racing_with_completion_gives_the_outcome_or_the_cancellation(make_engine: Any) -> None:
    engine = make_engine(claude("PreToolUse", "exit 0"))
    engine.add_callback_hook("PreToolUse", "ok", lambda p: HookResult.allow())
    tasks = [asyncio.ensure_future(engine.pre_tool_use_async(tool_name="Bash")) for _ in range(60)]
    for i, t in enumerate(tasks):
        if i % 2:
            await asyncio.sleep(0.0005 * (i % 7))
            t.cancel()
    done = await asyncio.gather(*tasks, return_exceptions=True)
    for d in done:
        assert isinstance(d, asyncio.CancelledError) or (isinstance(d, hookline.PreToolUseOutcome) and d.decision == "allow"), d
    assert pending_run_count() == 0


@pytest.mark.asyncio
async def test_close_with_async_runs_in_flight_fails_them_with_closed_error(make_engine: Any, workspace: Path) -> None:
    engine = make_engine(claude("PreToolUse", SLEEPER))
    tasks = [asyncio.ensure_future(engine.pre_tool_use_async(tool_name="Bash")) for _ in range(4)]
    pids = await _apids(workspace, 4)
    await engine.aclose()
    results = await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), 20)
    for r in results:
        assert isinstance(r, hookline.ClosedError) and "PreToolUse run interrupted: engine closed" in str(r), r
    assert _dead(pids)
    assert pending_run_count() == 0


def test_close_with_blocking_runs_in_flight_on_other_threads(make_engine: Any, workspace: Path) -> None:
    engine = make_engine(claude("PreToolUse", SLEEPER) | claude("Setup", SLEEPER))
    errors: List[BaseException] = []

    def event_run() -> None:
        try:
            engine.pre_tool_use(tool_name="Bash")
        except BaseException as e:
            errors.append(e)

    def named_run() -> None:
        try:
            engine.run_named("Setup", {})
        except BaseException as e:
            errors.append(e)

    threads = [threading.Thread(target=event_run) for _ in range(3)] + [threading.Thread(target=named_run)]
    for t in threads:
        t.start()
    pids = _pids(workspace, 4)
    engine.close()
    for t in threads:
        t.join(20)
        assert not t.is_alive()
    assert len(errors) == 4
    assert all(isinstance(e, hookline.ClosedError) for e in errors), errors
    assert _dead(pids)


def test_close_from_inside_a_callback_of_a_blocking_run(make_engine: Any) -> None:
    engine = make_engine()
    before = handler_count()
    engine.add_callback_hook("Stop", "closer", lambda p: engine.close())
    o = engine.stop(last_assistant_message="", stop_hook_active=False)
    assert o.hooks[0].exit_code == 0
    assert engine.closed
    with pytest.raises(hookline.ClosedError):
        engine.stop(last_assistant_message="", stop_hook_active=False)
    assert handler_count() == before  # the callback was released when its run returned


def test_close_from_inside_a_callback_of_an_async_run(make_engine: Any) -> None:
    engine = make_engine(claude("Stop", "exit 0"))
    before = handler_count()
    engine.add_callback_hook("Stop", "closer", lambda p: engine.close())

    async def go() -> Any:
        try:
            return await engine.stop_async(last_assistant_message="", stop_hook_active=False)
        except hookline.ClosedError as e:
            return e

    # The close frees the engine at once (the run is cancelled) or, when the call that started
    # the run has not returned yet, as that call returns (the run may have finished by then):
    # hookline's linearizable cancel decides, and either result is whole.
    r = asyncio.run(go())
    if isinstance(r, hookline.ClosedError):
        assert "Stop run interrupted: engine closed" in str(r)
    else:
        assert isinstance(r, hookline.StopOutcome) and [h.kind for h in r.hooks] == ["command", "callback"]
    assert engine.closed
    assert handler_count() == before
    assert pending_run_count() == 0


def test_a_blocking_run_inside_an_async_run_s_callback_is_wrong_thread(make_engine: Any) -> None:
    engine = make_engine(claude("PreToolUse", "exit 0"))
    seen: List[BaseException] = []

    def nested(p: Any) -> None:
        try:
            engine.pre_tool_use(tool_name="Bash")
        except BaseException as e:
            seen.append(e)

    engine.add_callback_hook("Stop", "nested", nested)
    asyncio.run(engine.stop_async(last_assistant_message="", stop_hook_active=False))
    assert len(seen) == 1 and isinstance(seen[0], hookline.WrongThreadError)


def test_an_engine_dropped_without_close_releases_its_callbacks() -> None:
    import tempfile

    before = handler_count()
    with tempfile.TemporaryDirectory() as ws:
        engine = hookline.Engine({"workspace": ws, "session_id": "s"})
        engine.add_callback_hook("Stop", "x", lambda p: None)
        assert handler_count() == before + 1
        del engine
        gc.collect()
    assert handler_count() == before


def test_the_interpreter_exits_cleanly_with_runs_in_flight(workspace: Path) -> None:
    script = textwrap.dedent(
        """
        import asyncio, sys, threading, hookline
        engine = hookline.Engine({"workspace": sys.argv[1], "session_id": "s",
            "hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "exec sleep 30"}]}]}})
        engine.add_callback_hook("PreToolUse", "cb", lambda p: None)
        async def main():
            for _ in range(3):
                asyncio.ensure_future(engine.pre_tool_use_async(tool_name="Bash"))
            await asyncio.sleep(0.3)
        loop = asyncio.new_event_loop()
        loop.run_until_complete(main())  # leaves the runs pending, the loop open, the engine unclosed
        def blocking():
            try:
                engine.pre_tool_use(tool_name="Bash")
            except hookline.ClosedError:
                pass  # the exit closed the engine under it
        threading.Thread(target=blocking, daemon=True).start()
        print("exiting", flush=True)
        """
    )
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    p = subprocess.run([sys.executable, "-c", script, str(workspace)], capture_output=True, text=True, timeout=60, env=env)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == "exiting"
    # asyncio's own note about the tasks left pending is all it may print: no crash, no traceback.
    other = [l for l in p.stderr.splitlines() if l and not l.startswith(("Task was destroyed", "task: <Task"))]
    assert other == [], p.stderr


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
@pytest.mark.filterwarnings("ignore:This process .* is multi-threaded")
def test_an_engine_used_in_a_forked_child_is_forked_error(make_engine: Any) -> None:
    engine = make_engine(claude("PreToolUse", "exit 0"))
    engine.pre_tool_use(tool_name="Bash")
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: report and leave at once
        code = 1
        try:
            engine.pre_tool_use(tool_name="Bash")
        except hookline.ForkedError:
            code = 0
        except BaseException:
            code = 2
        os.write(w, bytes([code]))
        os._exit(0)
    os.close(w)
    got = os.read(r, 1)
    os.close(r)
    os.waitpid(pid, 0)
    assert got == b"\0"
