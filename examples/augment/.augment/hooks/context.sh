#!/bin/sh
# Context for every prompt (Augment's PromptSubmit event).
cat >/dev/null
printf '%s\n' '{"hookSpecificOutput":{"hookEventName":"PromptSubmit","additionalContext":"Run make test before you finish."}}'
