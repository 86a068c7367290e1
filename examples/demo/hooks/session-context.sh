#!/bin/sh
# SessionStart: add context for the model (JSON additionalContext).
cat >/dev/null
printf '{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"Project rules: run tests before you stop; never delete files recursively."}}\n'
