"""The Gemini CLI dialect through Python: a project's .gemini/settings.json is recognised by its
path and gets Gemini CLI's decisions; previews carry its millisecond timeout."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def test_a_gemini_settings_file_gets_gemini_decisions(make_engine: Any, workspace: Path) -> None:
    deny = json.dumps({"decision": "deny", "reason": "no shell"})
    config = {"hooks": {"BeforeTool": [
        {"matcher": "run_shell_command", "hooks": [
            {"type": "command", "command": f"cat > payload.json; printf '%s' '{deny}'", "timeout": 3000}
        ]},
    ]}}
    path = workspace / ".gemini" / "settings.json"
    path.parent.mkdir()
    path.write_text(json.dumps(config))
    engine = make_engine(hooks_file=path)
    o = engine.pre_tool_use(tool_name="run_shell_command", tool_input={"command": "ls"})
    assert (o.decision, o.reason) == ("deny", "no shell")
    payload = json.loads((workspace / "payload.json").read_text())
    assert payload["hook_event_name"] == "BeforeTool" and "timestamp" in payload
    (p,) = engine.previews()
    assert (p.dialect, p.timeout_ms, p.timeout_seconds) == ("gemini", 3000, None)


def test_the_dialect_option_selects_gemini_for_inline_hooks(make_engine: Any) -> None:
    hooks = {"BeforeAgent": [{"hooks": [{"type": "command", "command": "cat >/dev/null; echo nope; exit 2"}]}]}
    engine = make_engine(hooks=hooks, dialect="gemini")
    o = engine.user_prompt_submit(turn_id="t1", prompt="hi")
    assert o.allow_prompt is False and o.block_reason == "nope"
