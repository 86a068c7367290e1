#!/usr/bin/env bash
# A Crush guard: the bash tool's command arrives in $CRUSH_TOOL_INPUT_COMMAND
# (and the whole call as JSON on stdin); exit 2 blocks the call with stderr
# as the reason, exit 49 would halt the whole turn.
cat >/dev/null
case "$CRUSH_TOOL_INPUT_COMMAND" in
  *'push --force'*|*'push -f'*) echo "force pushes are not allowed in this repository" >&2; exit 2 ;;
esac
exit 0
