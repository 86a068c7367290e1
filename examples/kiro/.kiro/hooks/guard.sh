#!/usr/bin/env bash
# A Kiro guard: the hook context arrives as JSON on stdin; exit 2 blocks the
# tool call and stderr goes back to the model.
payload=$(cat)
case "$payload" in
  *'push --force'*|*'push -f'*) echo "force pushes are not allowed in this repository" >&2; exit 2 ;;
esac
exit 0
