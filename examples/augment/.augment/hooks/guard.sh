#!/bin/sh
# Deny force pushes and recursive deletes of the whole tree: exit 2 blocks
# the tool call in Augment, stderr is the reason.
input=$(cat)
case "$input" in
  *'git push --force'* | *'rm -rf /'*)
    echo "blocked by .augment/hooks/guard.sh" >&2
    exit 2
    ;;
esac
exit 0
