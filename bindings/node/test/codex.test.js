'use strict';
// The Codex dialect through Node: a project's .codex/hooks.json is recognised
// by its path and gets Codex's decisions and payload; the `dialect` option
// selects it for inline hooks and hook sources.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { Engine, HooklineError, Status } = require('..');
const { engineOptions } = require('./helpers');

function engine(t, options) {
  const e = new Engine(options);
  t.after(() => e.close());
  return e;
}

const say = (json) => `cat > payload.json; printf '%s' '${JSON.stringify(json)}'`;

test('codex_hooks_json_is_recognised_by_path_and_gets_codex_decisions', async (t) => {
  const opts = engineOptions(t);
  const file = path.join(opts.workspace, '.codex', 'hooks.json');
  fs.mkdirSync(path.dirname(file));
  fs.writeFileSync(file, JSON.stringify({ hooks: { PreToolUse: [
    { matcher: 'Bash', hooks: [{ type: 'command', command: say({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny' } }) }] },
    { matcher: 'Edit', hooks: [{ type: 'command', command: "cat >/dev/null; echo 'use the formatter first' >&2; exit 2" }] },
  ] } }));
  const e = engine(t, { ...opts, hooksFile: file });
  // A deny without a reason is invalid in Codex: the tool runs.
  const bash = await e.preToolUse({ toolName: 'Bash', toolInput: { command: 'ls' }, toolCallId: 'c1', extra: { turn_id: 't1' } });
  assert.equal(bash.decision, 'continue');
  assert.match(bash.messages[0].text, /permissionDecision:deny without a non-empty permissionDecisionReason$/);
  assert.equal(bash.hooks[0].failure, 'invalid_output');
  const payload = fs.readFileSync(path.join(opts.workspace, 'payload.json'), 'utf8');
  assert.ok(!payload.endsWith('\n'), 'Codex writes no trailing newline');
  assert.deepEqual(Object.keys(JSON.parse(payload)), ['session_id', 'turn_id', 'transcript_path', 'cwd', 'hook_event_name',
    'model', 'permission_mode', 'tool_name', 'tool_input', 'tool_use_id']);
  // apply_patch is also Edit; exit 2 denies with stderr.
  const patch = e.preToolUseSync({ toolName: 'apply_patch' });
  assert.equal(patch.decision, 'deny');
  assert.equal(patch.reason, 'use the formatter first');
  assert.equal(e.previews()[0].dialect, 'codex');
});

test('codex_dialect_option_joins_stop_reasons_and_reports_dialect_fields', async (t) => {
  const block = (reason) => ({ type: 'command', command: `cat >/dev/null; printf '%s' '${JSON.stringify({ decision: 'block', reason })}'` });
  const hooks = { hooks: {
    Stop: [{ hooks: [block('first'), block('second')] }],
    SubagentStart: [{ hooks: [{ type: 'command', command: 'cat >/dev/null; echo child context' }] }],
  } };
  const e = engine(t, engineOptions(t, { hooks, dialect: 'codex' }));
  const stop = await e.stop({ lastAssistantMessage: 'done', stopHookActive: false });
  assert.equal(stop.blockReason, 'first\n\nsecond');
  const sub = await e.subagentStart({ parentSessionId: 'p', childThreadId: 'c', agentName: 'reviewer', displayLabel: 'R', background: false, status: 'running' });
  assert.deepEqual(sub.dialectFields, { codex: { additionalContext: ['child context'] } });
  const sources = engine(t, engineOptions(t, { hookSources: [{ hooks, dialect: 'codex', trusted: true }] }));
  assert.equal((await sources.stop({ lastAssistantMessage: '', stopHookActive: false })).blockReason, 'first\n\nsecond');
  assert.throws(() => new Engine(engineOptions(t, { hooks, dialect: 'codx' })), (err) =>
    err instanceof HooklineError && err.status === Status.HL_ERR_INVALID_ARGUMENT && /codex/.test(err.message));
});
