"""The Codex dialect through Python: a project's .codex/hooks.json is recognised by its path and
gets Codex's decisions; the ``dialect`` option selects it for inline hooks."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def test_a_codex_hooks_json_gets_codex_decisions(make_engine: Any, workspace: Path) -> None:
    ask = json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "ask"}})
    rewrite = json.dumps(
        {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", "updatedInput": {"command": "ls -la"}}}
    )
    config = {"hooks": {"PreToolUse": [
        {"matcher": "Bash", "hooks": [{"type": "command", "command": f"cat > payload.json; printf '%s' '{rewrite}'"}]},
        {"matcher": "Edit", "hooks": [{"type": "command", "command": f"cat >/dev/null; printf '%s' '{ask}'"}]},
    ]}}
    path = workspace / ".codex" / "hooks.json"
    path.parent.mkdir()
    path.write_text(json.dumps(config))
    engine = make_engine(hooks_file=path)
    o = engine.pre_tool_use(tool_name="Bash", tool_input={"command": "ls"}, extra={"turn_id": "t1"})
    assert (o.decision, o.updated_input) == ("continue", {"command": "ls -la"}), "allow only carries the rewrite"
    payload = (workspace / "payload.json").read_text()
    assert not payload.endswith("\n") and json.loads(payload)["turn_id"] == "t1"
    o = engine.pre_tool_use(tool_name="apply_patch")
    assert o.decision == "continue"
    assert [m.level for m in o.messages] == ["error"]
    assert o.messages[0].text.endswith("PreToolUse hook returned unsupported permissionDecision:ask")


def test_the_dialect_option_and_dialect_fields(make_engine: Any) -> None:
    hooks = {"hooks": {"SubagentStart": [{"hooks": [{"type": "command", "command": "cat >/dev/null; echo child context"}]}]}}
    engine = make_engine(hooks, dialect="codex")
    o = engine.subagent_start(
        parent_session_id="p", child_thread_id="c", agent_name="reviewer", display_label="R", background=False, status="running"
    )
    assert o.dialect_fields == {"codex": {"additionalContext": ["child context"]}}
    assert make_engine({"Stop": []}).stop(last_assistant_message="", stop_hook_active=False).dialect_fields == {}
