#!/bin/sh
# PermissionRequest(Read): allow, and remember the rule for the session.
cat >/dev/null
printf '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow","updatedPermissions":[{"type":"addRules","rules":[{"toolName":"Read"}],"behavior":"allow","destination":"session"}]}}}\n'
