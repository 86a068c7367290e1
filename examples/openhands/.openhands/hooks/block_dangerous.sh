#!/bin/sh
# pre_tool_use on `terminal`: deny `rm -rf` (a top-level decision, read on any exit code).
payload=$(cat)
case "$payload" in
  *'rm -rf'*)
    echo '{"decision": "deny", "reason": "rm -rf is not allowed in this repository"}'
    exit 2 ;;
esac
exit 0
