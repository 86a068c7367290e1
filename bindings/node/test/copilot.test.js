'use strict';
// The GitHub Copilot CLI and VS Code dialects through Node: a
// `.github/hooks` file recognised by its path, Copilot CLI's decisions, its
// `modifiedResult` under `dialectFields`, and the `dialect` option.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { Engine, Status } = require('..');
const { tempDir } = require('./helpers');

function hooksFile(dir, name, config) {
  fs.mkdirSync(path.join(dir, '.github', 'hooks'), { recursive: true });
  const file = path.join(dir, '.github', 'hooks', name);
  fs.writeFileSync(file, JSON.stringify(config));
  return file;
}

function engine(t, options) {
  const e = new Engine(options);
  t.after(() => e.close());
  return e;
}

const say = (obj) => `cat >/dev/null; printf '%s\\n' '${JSON.stringify(obj)}'`;

// "For preToolUse, if any hook returns "deny", the tool is blocked" — the
// hooks run in order and the first deny stops the rest. The guard reads the
// arguments the way Copilot CLI users do: `.toolArgs | fromjson`.
test('copilot_first_deny_stops_the_rest_and_tool_args_is_a_json_string', async (t) => {
  const dir = tempDir(t);
  const guard = 'input=$(cat); cmd=$(jq -r \'.toolArgs | fromjson | .command\' <<<"$input"); ' +
    'case "$cmd" in rm*) echo \'{"permissionDecision":"deny","permissionDecisionReason":"no rm"}\';; esac';
  const file = hooksFile(dir, 'guard.json', {
    version: 1,
    hooks: { preToolUse: [{ type: 'command', bash: guard }, { type: 'command', bash: 'cat >/dev/null; touch later-ran' }] },
  });
  const e = engine(t, { workspace: dir, sessionId: 's-node', hooksFile: file });
  const out = await e.preToolUse({ toolName: 'Bash', toolInput: { command: 'rm -rf /' } });
  assert.equal(out.decision, 'deny');
  assert.equal(out.reason, 'no rm');
  assert.equal(out.hooks.length, 1);
  assert.ok(!fs.existsSync(path.join(dir, 'later-ran')), 'the hook after the deny did not run');
  assert.equal(e.preToolUseSync({ toolName: 'bash', toolInput: { command: 'ls' } }).decision, 'continue');
  const [preview] = e.previews();
  assert.equal(preview.dialect, 'copilot');
  assert.deepEqual(preview.argv.slice(0, 4), ['bash', '--norc', '--noprofile', '-c']);
});

// "modifiedResult ... Replacement tool result": under dialectFields.copilot,
// vendor field names unchanged; absent from outcomes that have none.
test('copilot_modified_result_comes_back_under_dialect_fields', async (t) => {
  const dir = tempDir(t);
  const redact = say({ modifiedResult: { resultType: 'success', textResultForLlm: '[REDACTED]' } });
  const file = hooksFile(dir, 'redact.json', { hooks: { postToolUse: [{ type: 'command', bash: redact }] } });
  const e = engine(t, { workspace: dir, sessionId: 's-node', hooksFile: file });
  const out = await e.postToolUse({ toolName: 'bash', toolResponse: 'GH=ghp_x' });
  assert.deepEqual(out.dialectFields, { copilot: { modifiedResult: { resultType: 'success', textResultForLlm: '[REDACTED]' } } });
  const plain = e.preToolUseSync({ toolName: 'bash' });
  assert.ok(!('dialectFields' in plain));
});

// "Command preToolUse hooks are fail-closed on errors": a crash denies even
// when stdout allowed; a timeout does not.
test('copilot_crash_denies_and_timeout_fails_open', async (t) => {
  const dir = tempDir(t);
  const file = hooksFile(dir, 'h.json', { hooks: {
    preToolUse: [{ type: 'command', bash: `${say({ permissionDecision: 'allow' })}; exit 1`, matcher: 'bash' },
      { type: 'command', bash: 'cat >/dev/null; sleep 5', timeoutSec: 1, matcher: 'edit' }],
  } });
  const e = engine(t, { workspace: dir, sessionId: 's-node', hooksFile: file });
  const crashed = await e.preToolUse({ toolName: 'bash' });
  assert.equal(crashed.decision, 'deny');
  assert.equal(crashed.hooks[0].failure, 'exit');
  const slow = await e.preToolUse({ toolName: 'edit' });
  assert.equal(slow.decision, 'continue');
  assert.equal(slow.hooks[0].failure, 'timeout');
});

// The `dialect` option: the same file with VS Code's rules (matchers
// ignored, the most restrictive decision wins); an unknown name is refused.
test('dialect_option_reads_the_file_as_vscode', async (t) => {
  const dir = tempDir(t);
  const file = hooksFile(dir, 'h.json', { hooks: { PreToolUse: [
    { type: 'command', command: say({ hookSpecificOutput: { permissionDecision: 'ask' } }), matcher: 'Edit' },
    { type: 'command', command: say({ hookSpecificOutput: { permissionDecision: 'allow' } }) },
  ] } });
  const e = engine(t, { workspace: dir, sessionId: 's-node', hooksFile: file, dialect: 'vscode' });
  const out = await e.preToolUse({ toolName: 'runTerminalCommand' });
  assert.equal(out.decision, 'ask');
  assert.equal(out.hooks.length, 2);
  assert.throws(() => new Engine({ workspace: dir, sessionId: 's', hooksFile: file, dialect: 'copilott' }),
    (err) => err.status === Status.HL_ERR_INVALID_ARGUMENT && /copilot/.test(err.message));
});
