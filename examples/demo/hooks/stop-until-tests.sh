#!/bin/sh
# Stop: block the first stop (the agent must run tests first); allow it when
# stop_hook_active is true (we already blocked once).
payload=$(cat)
case "$payload" in
  *'"stop_hook_active":true'*) exit 0 ;;
esac
printf '{"decision":"block","reason":"run the test suite before finishing"}\n'
