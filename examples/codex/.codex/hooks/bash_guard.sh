#!/bin/sh
# A Codex PreToolUse hook the way Codex users write them in plain sh:
# read the payload from stdin, pull out tool_input.command without jq,
# and deny destructive commands with Codex's hookSpecificOutput.
input=$(cat)
command=$(printf '%s' "$input" | sed -n 's/.*"tool_input":{"command":"\([^"]*\)".*/\1/p')
case "$command" in
  *"rm -rf"*|*"git push --force"*)
    printf '%s\n' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"Destructive command blocked by repository policy"}}'
    ;;
  *)
    # Nothing to say: Codex treats empty stdout as no decision.
    ;;
esac
exit 0
