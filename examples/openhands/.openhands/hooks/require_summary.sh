#!/bin/sh
# stop: keep the agent working until it wrote SUMMARY.md (the feedback is additionalContext).
cat >/dev/null
if [ ! -f "$OPENHANDS_PROJECT_DIR/SUMMARY.md" ]; then
  echo '{"decision": "deny", "additionalContext": "Write SUMMARY.md before finishing."}'
  exit 2
fi
exit 0
