"""A tiny agent loop using hookline from Python.

Shell hooks from a Claude Code style config behind the workspace approval gate,
a Python callback hook, an in-process registry, and cancellation of an asyncio
task (which kills the hook's processes). The Python twin of the Go and Node
example agents.

    make example-python                 (from the repository root)
    python examples/agent.py            (with the hookline package installed)
"""

import asyncio
import json
import shutil
import tempfile
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

from hookline import (
    Engine,
    HookReply,
    HookResult,
    Hooks,
    PreToolCallDecideContext,
)

HOOKS: Dict[str, Any] = {
    "SessionStart": [{"hooks": [{"type": "command", "command": 'echo "This project uses pnpm, not npm."'}]}],
    "UserPromptSubmit": [
        {"hooks": [{"type": "command",
                    "command": 'grep -qi "password" && { echo "prompt contains a secret" >&2; exit 2; } || exit 0'}]},
    ],
    "PreToolUse": [
        {
            "matcher": "Bash",
            "hooks": [
                # Deny destructive commands (exit 2: stderr is the reason).
                {"type": "command", "timeout": 10,
                 "command": 'grep -q "rm -rf" && { echo "destructive command blocked" >&2; exit 2; } || exit 0'},
                # Rewrite npm to pnpm (updatedInput is what later hooks and the tool see).
                {"type": "command", "timeout": 10,
                 "command": "python3 -c 'import json,sys; p=json.load(sys.stdin); c=p[\"tool_input\"][\"command\"];"
                            " c.startswith(\"npm \") and print(json.dumps({\"hookSpecificOutput\":"
                            " {\"hookEventName\": \"PreToolUse\", \"updatedInput\": dict(p[\"tool_input\"], command=\"p\"+c)}}))'"},
            ],
        },
        {"matcher": "Slow", "hooks": [{"type": "command", "command": "sleep 30"}]},
    ],
    "Stop": [{"hooks": [{"type": "command",
                         "command": "echo '{\"decision\":\"block\",\"reason\":\"tests have not been run yet\"}'"}]}],
}


def protect_lockfiles(payload: Dict[str, Any]) -> Optional[HookReply]:
    """A host-side policy as a callback hook: same payload and reply as a command."""
    path = (payload.get("tool_input") or {}).get("path", "")
    return HookResult.deny("lockfiles are managed by pnpm") if "lock" in str(path) else None


def registry() -> Hooks:
    """In-process registry: a transform and a decide callback."""
    hooks = Hooks()

    @hooks.on_transform_tool_input("default-timeout")
    def default_timeout(ctx: PreToolCallDecideContext) -> Dict[str, Any]:
        args = ctx.tool_args if isinstance(ctx.tool_args, dict) else {}
        return {"timeout_ms": 120000, **args}

    @hooks.on_pre_tool_call_decide("no-network")
    def no_network(ctx: PreToolCallDecideContext) -> HookResult:
        args = ctx.tool_args if isinstance(ctx.tool_args, dict) else {}
        command = str(args.get("command", ""))
        if command.startswith(("curl ", "wget ")):
            return HookResult.deny("network access is disabled")
        return HookResult.allow()

    return hooks


async def main() -> int:
    workspace = Path(tempfile.mkdtemp(prefix="hookline-agent-"))
    trust_store = workspace / ".trust.json"  # keep the demo out of ~/.config
    failures = 0
    try:
        with Engine({"workspace": workspace, "session_id": "demo-session", "workspace_gated": True,
                     "trust_store": trust_store, "hooks": HOOKS}) as engine, registry() as reg:
            # The gate: nothing runs until the user approves this exact command set.
            print(f"workspace hooks need approval: {engine.needs_approval} (digest {engine.digest()[:16]}…)")
            for p in engine.previews():
                print(f"  {p.event} [{p.matcher or '*'}] {p.command[:60]}")
            engine.approve(persist=False)
            engine.add_callback_hook("PreToolUse", "protect-lockfiles", protect_lockfiles, matcher="Write|Edit")

            start = await engine.session_start_async()
            print("SessionStart context:", start.additional_context)

            prompt = await engine.user_prompt_submit_async(turn_id="t1", prompt="my password is hunter2")
            print(f"UserPromptSubmit: allowed={prompt.allow_prompt} ({prompt.block_reason})")
            failures += prompt.allow_prompt

            calls: List[Tuple[str, Dict[str, Any], str]] = [
                ("Bash", {"command": "rm -rf /"}, "deny"),
                ("Bash", {"command": "npm install"}, "continue"),
                ("Bash", {"command": "curl https://example.com"}, "continue"),
                ("Edit", {"path": "pnpm-lock.yaml"}, "deny"),
                ("Read", {"path": "README.md"}, "continue"),
            ]
            for tool_name, tool_input, want in calls:
                transformed = reg.run_transform_tool_input(PreToolCallDecideContext(tool_name, tool_input))
                decided = reg.run_pre_tool_call_decide(PreToolCallDecideContext(tool_name, transformed.tool_args))
                outcome = await engine.pre_tool_use_async(tool_name=tool_name, tool_input=tool_input,
                                                          tool_call_id=f"call-{tool_name}")
                runs = outcome.updated_input if outcome.updated_input is not None else tool_input
                print(f"PreToolUse {tool_name} {json.dumps(tool_input)} → {outcome.decision}"
                      + (f" ({outcome.reason})" if outcome.reason else "")
                      + (f" runs {json.dumps(runs)}" if outcome.updated_input is not None else "")
                      + f" | registry: {'allow' if decided.allow else f'deny ({decided.message})'}")
                failures += outcome.decision != want

            # Cancelling the task cancels the run and kills its hook processes.
            slow = asyncio.ensure_future(engine.pre_tool_use_async(tool_name="Slow"))
            await asyncio.sleep(0.3)
            slow.cancel()
            try:
                await slow
            except asyncio.CancelledError:
                print("Slow hook: cancelled")

            stop = await engine.stop_async(last_assistant_message="All done!", stop_hook_active=False)
            print(f"Stop: block={stop.block_reason}")
            failures += stop.block_reason is None
            await engine.session_end_async(turn_id="t1", reason="completed")
    finally:
        shutil.rmtree(workspace, ignore_errors=True)
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))
