#!/bin/sh
# Append one line per call to .augment/audit.log: the kind given in args and
# the conversation.
cat >/dev/null
echo "$1 $AUGMENT_CONVERSATION_ID" >> "$AUGMENT_PROJECT_DIR/.augment/audit.log"
