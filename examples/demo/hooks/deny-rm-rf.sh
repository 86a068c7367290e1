#!/bin/sh
# PreToolUse(Bash): deny recursive deletes. Exit 2 + stderr = deny with that reason.
payload=$(cat)
case "$payload" in
  *'rm -rf'*|*'rm -fr'*) echo "recursive delete blocked by policy" >&2; exit 2 ;;
esac
exit 0
