#!/usr/bin/env bash
# Seeds of the fuzz targets that take a selector byte before a config or a
# reply: writes fuzz/corpus/{dialect_config,dialect_reply,http_response,trust_store}.
# The config seeds are the committed config_json and config_toml seeds (the
# configs of the project's tests) read by every dialect, plus Codex's own
# files; the reply seeds are hook outputs from the tests.
set -euo pipefail
cd "$(dirname "$0")/corpus"
mkdir -p dialect_config dialect_reply http_response trust_store
seed() { printf "$1" > "$2.tmp"; cat - >> "$2.tmp"; mv "$2.tmp" "$2"; }
# dialect_config: byte 0 = dialect index (0 VT Code, 1 Claude Code, 2 Codex); +0x80 = TOML.
for f in config_json/*; do
  for d in 0 1 2; do seed "\\x0$d" "dialect_config/json${d}_$(basename "$f")" < "$f"; done
done
for f in config_toml/*; do
  for d in 0 2; do seed "\\x8$d" "dialect_config/toml${d}_$(basename "$f")" < "$f"; done
done
seed '\x02' dialect_config/codex_hooks_json <<'J'
{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "python3 .codex/hooks/guard.py", "timeout": 30, "statusMessage": "checking"}]}], "Stop": [{"hooks": [{"type": "command", "command": "echo stop"}]}]}}
J
seed '\x82' dialect_config/codex_config_toml <<'T'
model = "gpt-5"
approval_policy = "on-request"

[[hooks.PreToolUse]]
matcher = "Bash"

[[hooks.PreToolUse.hooks]]
type = "command"
command = "python3 .codex/hooks/guard.py"
command_windows = "py .codex\\hooks\\guard.py"
timeout = 30

[hooks.state."/p/.codex/hooks.json:pre_tool_use:0:0"]
enabled = true

[[hooks.Stop]]
[[hooks.Stop.hooks]]
type = "command"
command = "echo stop"
T
# dialect_reply: dialect, event (HookEvent::ALL index), ending, 2 argument bytes, stdout 0x01 stderr.
i=0
for d in 0 1 2; do
  for e in 0 1 2 3 4 5; do
    for out in \
      '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"guard says no"}}' \
      '{"decision":"block","reason":"from stdout"}' \
      '{"continue":false,"stopReason":"halt"}' \
      '{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"ctx"}}' \
      'plain text'; do
      i=$((i + 1))
      printf "\\x0$d\\x0$e\\x00\\x00\\x00%s" "$out" > "dialect_reply/r$i"
    done
    printf "\\x0$d\\x0$e\\x02\\x00\\x00\\x01blocked on stderr" > "dialect_reply/exit2_${d}_$e"
    printf "\\x0$d\\x0$e\\x06\\x00\\xc8{\"decision\":\"block\",\"reason\":\"http\"}" > "dialect_reply/http_${d}_$e"
  done
done
# http_response: mode 0 = raw response; 1 = status, headers, 0x00, body with Content-Length; 2 = without.
printf '\x00HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 39\r\n\r\n{"decision":"block","reason":"no way"}\n' > http_response/raw_json
printf '\x00HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\n{"a"\r\n3\r\n:1}\r\n0\r\n\r\n' > http_response/raw_chunked
printf '\x00HTTP/1.1 302 Found\r\nLocation: http://127.0.0.1:1/\r\nContent-Length: 0\r\n\r\n' > http_response/raw_redirect
printf '\x01\x00\xccContent-Type: application/json\x00{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"r"}}' > http_response/deny
printf '\x01\x00\x68Content-Type: text/plain\x00' > http_response/empty_204
printf '\x02\x01\x90Content-Type: text/plain\x00server error' > http_response/error_500
# trust_store: store files.
printf '{"version":1,"workspaces":{"/w":{"digest":"%064d","approved_at":"2026-01-01T00:00:00Z"}}}\n' 0 > trust_store/one
printf '{"version":1,"workspaces":{}}\n' > trust_store/empty
printf '{"workspaces":{"/a":{},"hex:2f61ff":{"digest":"x"}}}' > trust_store/odd
printf '{"workspaces":' > trust_store/cut
printf '[]' > trust_store/array
