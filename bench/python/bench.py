"""The Python driver of hookline's benchmarks: the same command hook run by subprocess.run (how
Python agents run hooks today) and by hookline through the Python binding, interleaved in
rounds; then the binding's fixed cost per run (an engine without hooks, and one Python callback
hook).

    python3 bench/python/bench.py <payload-file> [n]      (PYTHONPATH=bindings/python/src)

Prints one JSON line per measurement, like bench/c/hlbench.c.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from typing import Any, Awaitable, Callable, Dict, List

import hookline

HOOK_CMD = """cat >/dev/null; echo '{"hookSpecificOutput":{"permissionDecision":"allow"}}'"""
now = time.perf_counter_ns


def emit(name: str, samples: List[int]) -> None:
    s = sorted(samples)
    n = len(s)
    r99 = max(1, -(-n * 99 // 100))
    print(json.dumps({"name": name, "unit": "ns", "n": n, "median": s[n >> 1], "p99": s[r99 - 1], "min": s[0],
                      "mean": sum(s) // n}), flush=True)


def hook_env(workspace: str) -> Dict[str, str]:
    """The inherited environment plus the variables hookline gives a hook."""
    env = {k: v for k, v in os.environ.items() if not re.match(r"^(HOOKLINE_|VT_|CLAUDE_)", k)}
    for k in ("HOOKLINE_PROJECT_DIR", "VT_PROJECT_DIR", "CLAUDE_PROJECT_DIR"):
        env[k] = workspace
    for k in ("HOOKLINE_SESSION_ID", "VT_SESSION_ID", "CLAUDE_SESSION_ID"):
        env[k] = "bench-session"
    env["HOOKLINE_HOOK_EVENT"] = "PreToolUse"
    env["VT_HOOK_EVENT"] = "PreToolUse"
    return env


def main() -> None:
    payload = open(sys.argv[1], "rb").read()
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 500
    workspace = os.path.realpath(tempfile.mkdtemp(prefix="hlbench-python"))
    env = hook_env(workspace)
    tool_input = {"command": "git status --porcelain"}

    def native() -> None:
        # What a Python agent writes: run the hook with the payload on stdin, collect its output.
        p = subprocess.run(["/bin/sh", "-c", HOOK_CMD], input=payload, capture_output=True, cwd=workspace, env=env)
        if p.returncode != 0 or b"permissionDecision" not in p.stdout:
            raise SystemExit(f"hook failed: {p.returncode} {p.stderr!r}")

    engine = hookline.Engine({"workspace": workspace, "session_id": "bench-session",
                              "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": HOOK_CMD}]}]}})

    def hl_sync() -> None:
        o = engine.pre_tool_use(tool_name="Bash", tool_input=tool_input, tool_call_id="call-1")
        if o.decision != "allow":
            raise SystemExit(f"decision {o.decision}")

    async def hl_async() -> None:
        o = await engine.pre_tool_use_async(tool_name="Bash", tool_input=tool_input, tool_call_id="call-1")
        if o.decision != "allow":
            raise SystemExit(f"decision {o.decision}")

    loop = asyncio.new_event_loop()
    for _ in range(20):
        native()
        hl_sync()
        loop.run_until_complete(hl_async())

    async def timed_async(fn: Callable[[], Awaitable[None]], count: int, out: List[int]) -> None:
        for _ in range(count):
            t0 = now()
            await fn()
            out.append(now() - t0)

    rounds = 10
    per = max(1, n // rounds)
    spawn_native: List[int] = []
    spawn_sync: List[int] = []
    spawn_async: List[int] = []
    for _ in range(rounds):
        for _ in range(per):
            t0 = now()
            native()
            spawn_native.append(now() - t0)
        for _ in range(per):
            t0 = now()
            hl_sync()
            spawn_sync.append(now() - t0)
        loop.run_until_complete(timed_async(hl_async, per, spawn_async))
    emit("spawn_subprocess_python", spawn_native)
    emit("spawn_hookline_python", spawn_sync)
    emit("spawn_hookline_async_python", spawn_async)

    # The binding's fixed cost per run: one in-process Python callback hook that allows (no
    # process), and an engine without hooks; blocking and asyncio, alternating.
    def fixed(e: hookline.Engine, check: Callable[[Any], bool], sync_name: str, async_name: str) -> None:
        s: List[int] = []
        a: List[int] = []

        async def alternate() -> None:  # inside one running event loop, as an agent awaits
            for i in range(n * 10):
                t0 = now()
                o1 = e.pre_tool_use(tool_name="Bash", tool_input=tool_input, tool_call_id="call-1")
                t1 = now()
                o2 = await e.pre_tool_use_async(tool_name="Bash", tool_input=tool_input, tool_call_id="call-1")
                t2 = now()
                if not (check(o1) and check(o2)):
                    raise SystemExit(f"{sync_name}: unexpected outcome {o1} {o2}")
                if i >= n:  # the first n are warm-up
                    s.append(t1 - t0)
                    a.append(t2 - t1)

        loop.run_until_complete(alternate())
        emit(sync_name, s)
        emit(async_name, a)

    cb = hookline.Engine({"workspace": workspace, "session_id": "bench-session"})
    cb.add_callback_hook("PreToolUse", "allow-all", lambda p: hookline.HookResult.allow(), matcher="Bash")
    fixed(cb, lambda o: o.decision == "allow", "callback_hook_python", "callback_hook_async_python")
    cb.close()
    empty = hookline.Engine({"workspace": workspace, "session_id": "bench-session"})
    fixed(empty, lambda o: o.hooks == [] and o.decision == "continue", "nohooks_python", "nohooks_async_python")
    empty.close()
    engine.close()

    registry_and_antigravity(loop, n)
    loop.close()
    os.rmdir(workspace)


def registry_and_antigravity(loop: asyncio.AbstractEventLoop, n: int) -> None:
    """One pre_tool_call_decide callback that allows: through the plain registry
    (Hooks.run_pre_tool_call_decide), and one PreToolCallDecideHook dispatched by
    hookline.antigravity.HookRunner and by the Antigravity SDK's own HookRunner, alternating in
    rounds in one event loop (each round emits both rows, so the report pairs them round by
    round). The SDK rows need google-antigravity (the Python test environment has it)."""
    hooks = hookline.Hooks()
    hooks.on_pre_tool_call_decide("allow", lambda ctx: hookline.HookResult.allow())
    ctx = hookline.PreToolCallDecideContext("run_command", {"command": "git status --porcelain"})
    per_round = n * 5
    rounds = 10
    for _ in range(per_round):
        hooks.run_pre_tool_call_decide(ctx)
    reg: List[int] = []
    for _ in range(rounds * per_round):
        t0 = now()
        r = hooks.run_pre_tool_call_decide(ctx)
        reg.append(now() - t0)
        if not r.allow:
            raise SystemExit(f"registry: unexpected result {r}")
    emit("registry_decide_python", reg)
    hooks.close()
    try:
        from google.antigravity import types as agy_types
        from google.antigravity.hooks import hook_runner as agy_runner
        from google.antigravity.hooks import hooks as agy_hooks

        from hookline import antigravity as hl_antigravity
    except ImportError as e:
        print(f"bench: the Antigravity SDK rows are skipped ({e}); run with build/python/venv/bin/python", file=sys.stderr)
        return

    class Allow(agy_hooks.PreToolCallDecideHook):  # type: ignore[misc]
        async def run(self, context: Any, data: Any) -> Any:
            return agy_hooks.HookResult(allow=True)

    call = agy_types.ToolCall(name="run_command", args={"command": "git status --porcelain"})
    runners = {
        "antigravity_hookline_python": hl_antigravity.HookRunner(pre_tool_call_decide_hooks=[Allow()]),
        "antigravity_sdk_python": agy_runner.HookRunner(pre_tool_call_decide_hooks=[Allow()]),
    }

    async def timed(runner: Any, count: int, out: List[int]) -> None:
        turn = agy_hooks.TurnContext(runner.session_context)
        for _ in range(count):
            t0 = now()
            res, _, _ = await runner.dispatch_pre_tool_call(turn, call)
            out.append(now() - t0)
            if not res.allow:
                raise SystemExit(f"antigravity: unexpected result {res}")

    for runner in runners.values():
        loop.run_until_complete(timed(runner, per_round, []))  # warm-up
    for _ in range(rounds):
        for name, runner in runners.items():
            s: List[int] = []
            loop.run_until_complete(timed(runner, per_round, s))
            emit(name, s)


if __name__ == "__main__":
    main()
