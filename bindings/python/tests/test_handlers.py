"""prompt, agent and mcp_tool hooks answered by the host's handlers (``set_model_handler``,
``set_mcp_handler``), over ``hl_engine_set_handler``: sync and ``async def`` handlers, failures,
removal, and no handler at all."""

from __future__ import annotations

import asyncio
import threading
from typing import Any, List

import pytest

import hookline
from hookline import McpReply, McpRequest, ModelReply, ModelRequest


def prompt_hooks(event: str = "PreToolUse", **hook: Any) -> Any:
    return {event: [{"matcher": "Bash", "hooks": [{"type": "prompt", "prompt": "Is this safe? $ARGUMENTS", **hook}]}]}


def test_a_model_handler_that_says_not_ok_denies_the_tool_call(make_engine: Any) -> None:
    """Claude Code: a prompt hook's `ok: false` on PreToolUse denies the call with the reason."""
    seen: List[ModelRequest] = []

    def model(req: ModelRequest) -> ModelReply:
        seen.append(req)
        return ModelReply(ok="rm -rf" not in req.prompt, reason="destructive command")

    engine = make_engine(prompt_hooks())
    engine.set_model_handler(model)
    o = engine.pre_tool_use(tool_name="Bash", tool_input={"command": "rm -rf /"})
    assert o.decision == "deny" and o.reason == "destructive command"
    assert seen[0].type == "prompt" and seen[0].event == "PreToolUse"
    assert '"rm -rf /"' in seen[0].prompt and seen[0].prompt.startswith("Is this safe? ")
    assert seen[0].input["tool_name"] == "Bash" and seen[0].timeout_ms == 30_000
    o = engine.pre_tool_use(tool_name="Bash", tool_input={"command": "ls"})
    assert o.decision != "deny"


def test_without_a_handler_a_prompt_hook_fails_open_as_no_handler(make_engine: Any) -> None:
    engine = make_engine(prompt_hooks())
    o = engine.pre_tool_use(tool_name="Bash", tool_input={"command": "rm -rf /"})
    assert o.decision == "continue"
    assert o.hooks[0].failure == "no_handler"
    engine.set_model_handler(lambda req: {"ok": False, "reason": "no"})
    assert engine.pre_tool_use(tool_name="Bash", tool_input={"command": "x"}).decision == "deny"
    engine.set_model_handler(None)
    assert engine.pre_tool_use(tool_name="Bash", tool_input={"command": "x"}).hooks[0].failure == "no_handler"


def test_a_handler_that_raises_is_a_failed_hook_and_reported(make_engine: Any) -> None:
    errors: List[BaseException] = []
    engine = make_engine(prompt_hooks(), on_callback_error=lambda e, info: errors.append(e))

    def broken(req: ModelRequest) -> ModelReply:
        raise RuntimeError("model offline")

    engine.set_model_handler(broken)
    o = engine.pre_tool_use(tool_name="Bash", tool_input={"command": "ls"})
    assert o.decision == "continue" and o.hooks[0].failure is not None
    assert [str(e) for e in errors] == ["model offline"]
    engine.set_model_handler(lambda req: 42)  # not a verdict
    o = engine.pre_tool_use(tool_name="Bash", tool_input={"command": "ls"})
    assert o.decision == "continue" and o.hooks[0].failure is not None


def test_a_coroutine_handler_answers_without_holding_a_hookline_thread(make_engine: Any) -> None:
    async def main() -> None:
        engine = make_engine(prompt_hooks())
        threads: List[int] = []

        async def model(req: ModelRequest) -> ModelReply:
            threads.append(threading.get_ident())
            await asyncio.sleep(0.05)
            return ModelReply(ok=False, reason="slow no")

        engine.set_model_handler(model)
        o = await engine.pre_tool_use_async(tool_name="Bash", tool_input={"command": "rm -rf x"})
        assert o.decision == "deny" and o.reason == "slow no"
        assert threads == [threading.get_ident()], "the coroutine ran on the loop it was set from"

    asyncio.run(main())


def test_an_mcp_handler_gets_the_substituted_input_and_its_text_reads_like_stdout(make_engine: Any) -> None:
    """An mcp_tool hook's reply is the tool's text content, read like a command's stdout on exit 0."""
    hooks = {"PostToolUse": [{"matcher": "Write", "hooks": [
        {"type": "mcp_tool", "server": "lint", "tool": "check", "input": {"path": "${tool_input.file_path}"}}]}]}
    engine = make_engine(hooks)
    seen: List[McpRequest] = []

    def mcp(req: McpRequest) -> Any:
        seen.append(req)
        return '{"decision": "block", "reason": "lint errors in ' + str(req.input["path"]) + '"}'

    engine.set_mcp_handler(mcp)
    o = engine.post_tool_use(tool_name="Write", tool_input={"file_path": "a.py"}, tool_response={})
    assert (seen[0].server, seen[0].tool, seen[0].input) == ("lint", "check", {"path": "a.py"})
    assert o.block_reason == "lint errors in a.py"
    engine.set_mcp_handler(lambda req: McpReply("broken", is_error=True))
    o = engine.post_tool_use(tool_name="Write", tool_input={"file_path": "a.py"}, tool_response={})
    assert o.block_reason is None and o.hooks[0].failure is not None


def test_set_handler_refuses_what_is_not_callable(make_engine: Any) -> None:
    engine = make_engine()
    with pytest.raises(hookline.InvalidArgumentError):
        engine.set_model_handler("not a function")  # type: ignore[arg-type]
