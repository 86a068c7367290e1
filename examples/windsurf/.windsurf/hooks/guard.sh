#!/usr/bin/env bash
# A Cascade guard: reads the payload on stdin, blocks (exit 2, the reason on
# stderr) a command line that removes recursively, or a prompt that carries an
# API key. Cascade never reads stdout.
payload=$(cat)
case "$payload" in
  *'"command_line":"rm -rf'*) echo "recursive removal is not allowed here" >&2; exit 2 ;;
  *'"user_prompt":'*sk-*) echo "the prompt carries an API key" >&2; exit 2 ;;
esac
exit 0
