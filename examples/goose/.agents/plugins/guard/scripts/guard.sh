#!/bin/sh
# A goose PreToolUse hook: exit 0 with nothing on stdout lets the call through;
# {"decision":"block","reason":...} on stdout (or exit 2 with a reason on stderr)
# denies it. Anything else on stdout would be "no decision", which on_failure:
# "block" turns into a denial: log to stderr only.
payload=$(cat)
case "$payload" in
  *'push --force'*|*'rm -rf /'*)
    printf '%s\n' '{"decision":"block","reason":"this command is not allowed in this repository"}'
    ;;
esac
exit 0
