#!/usr/bin/env bash
# Deny `rm -rf` in shell commands: exit 2 with the reason on stderr.
input=$(cat)
case $input in
  *'rm -rf'*) echo 'rm -rf is not allowed in this project' >&2; exit 2 ;;
esac
exit 0
