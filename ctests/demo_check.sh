#!/bin/sh
# The demo agent (examples/demo/agent.c) prints one readable line per event
# (what happened and why) and the outcome JSON only on request.
# Usage: demo_check.sh <agent binary> <examples/demo directory>
set -eu
agent="$1"
cd "$2"
fail=0
check() { # check <description> <command...>
  what="$1"; shift
  if ! "$@"; then echo "FAIL: $what" >&2; fail=1; fi
}
plain="$("$agent" hooks.json)"
echo "$plain"
events=$(printf '%s\n' "$plain" | grep -cE '^[A-Za-z]+ +.* -> ' || true)
check "16 event lines (every event fired), got $events" [ "$events" -eq 16 ]
for name in SessionStart SessionEnd SubagentStart SubagentStop UserPromptSubmit PreToolUse PostToolUse \
  PermissionRequest PreCompact Stop Notification PostToolUseFailure; do
  check "a line for $name" sh -c "printf '%s\n' \"\$1\" | grep -qE '^$name +'" sh "$plain"
done
has() { printf '%s\n' "$plain" | grep -qE "$1"; }
check "rm -rf denied with its reason" has '^PreToolUse +Bash rm -rf build/ +-> denied: recursive delete blocked by policy$'
check "ls rewritten" has '^PreToolUse +Bash ls +-> continue .*input rewritten to \{"command":"ls -la"\}'
check "the C callback's deny" has '^PreToolUse +Write /etc/hosts +-> denied: host policy'
check "blocked prompt" has '^UserPromptSubmit .* -> prompt blocked: prompt contains what looks like an AWS key$'
check "blocked stop" has '^Stop .* -> stop blocked, the agent keeps working: run the test suite before finishing'
check "second stop allowed" has '^Stop .* -> stop allowed$'
check "the http hook's audit service answered" has '^PostToolUse +Bash ls -la finished .*audit service recorded Bash'
check "the prompt hook's scripted model was asked" has '^    model: asked .* -> ok$'
check "permission allowed" has '^PermissionRequest .* -> allowed for scope session$'
check "no outcome JSON without --json" sh -c "! printf '%s\n' \"\$1\" | grep -q '\"hooks\":\['" sh "$plain"
json_lines=$("$agent" --json hooks.json | grep -c '^    {.*"hooks":\[' || true)
check "--json prints 16 outcome JSON lines, got $json_lines" [ "$json_lines" -eq 16 ]
env_lines=$(HOOKLINE_DEMO_JSON=1 "$agent" hooks.json | grep -c '^    {.*"hooks":\[' || true)
check "HOOKLINE_DEMO_JSON=1 prints 16 outcome JSON lines, got $env_lines" [ "$env_lines" -eq 16 ]
# From any directory and without naming the config (the README's
# `build/demo/agent --json`, run at the repository root): the demo's own
# hooks.json, with the hooks run in its directory.
from_root="$(cd ../.. && "$agent" --json)"
root_json=$(printf '%s\n' "$from_root" | grep -c '^    {.*"hooks":\[' || true)
check "--json from the repository root prints 16 outcome JSON lines, got $root_json" [ "$root_json" -eq 16 ]
check "from the repository root, rm -rf is denied by the demo's hook" sh -c "printf '%s\n' \"\$1\" | grep -qE '^PreToolUse +Bash rm -rf build/ +-> denied: recursive delete blocked by policy$'" sh "$from_root"
from_tmp="$(cd / && "$agent")"
check "from / the agent runs the demo's hooks" sh -c "printf '%s\n' \"\$1\" | grep -qE '^Stop .* -> stop blocked, the agent keeps working'" sh "$from_tmp"
missing="$("$agent" /nonexistent/hooks.json 2>&1 || true)"
check "a missing hooks file is an error naming it" sh -c "printf '%s\n' \"\$1\" | grep -q 'cannot open the hooks file /nonexistent/hooks.json'" sh "$missing"
rm -f .hook-audit.log .transcript.jsonl
[ "$fail" = 0 ] && echo "demo: one readable line per event; JSON on request; runs from any directory"
