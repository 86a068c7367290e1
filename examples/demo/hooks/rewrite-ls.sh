#!/bin/sh
# PreToolUse(Bash): rewrite a bare `ls` into `ls -la` (updatedInput).
payload=$(cat)
case "$payload" in
  *'"command":"ls"'*)
    printf '{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"ls -la"},"additionalContext":"ls was expanded to ls -la"}}\n' ;;
esac
exit 0
