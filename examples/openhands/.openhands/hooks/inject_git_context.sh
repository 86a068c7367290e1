#!/bin/sh
# user_prompt_submit: the current branch as context for the prompt.
cat >/dev/null
branch=$(git -C "$OPENHANDS_PROJECT_DIR" rev-parse --abbrev-ref HEAD 2>/dev/null || echo unknown)
printf '{"additionalContext": "Current git branch: %s"}\n' "$branch"
