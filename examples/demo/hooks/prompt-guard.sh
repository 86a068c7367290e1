#!/bin/sh
# UserPromptSubmit: block prompts that contain something that looks like a secret.
payload=$(cat)
case "$payload" in
  *AKIA[0-9A-Z]*) echo "prompt contains what looks like an AWS key" >&2; exit 2 ;;
esac
echo "prompt received at $(date -u +%H:%M:%S)"
