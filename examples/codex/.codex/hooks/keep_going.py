#!/usr/bin/env python3
"""A Codex Stop hook: keep the agent working until the tests were run.

Codex sends `stop_hook_active: true` when the turn already continued
because of a Stop hook; answering nothing then lets the agent stop.
"""
import json
import sys

payload = json.load(sys.stdin)
if payload.get("stop_hook_active"):
    sys.exit(0)
message = payload.get("last_assistant_message") or ""
if "tests pass" not in message:
    json.dump({"decision": "block", "reason": "Run the test suite and report the result before stopping."}, sys.stdout)
    print()
