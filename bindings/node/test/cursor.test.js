'use strict';
// The Cursor dialect through Node: a project's .cursor/hooks.json, flat
// snake_case answers, preToolUse then beforeShellExecution, events fired by
// name with their own rules, stop follow-ups bounded by loop_limit, and the
// outcome's dialectFields (docs/dialects.md).

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { Engine } = require('..');
const { tempDir } = require('./helpers');

/** An engine reading <tmp>/.cursor/hooks.json with `hooks` (recognised by its path). */
function cursorEngine(t, hooks, extra = {}) {
  const workspace = tempDir(t);
  fs.mkdirSync(path.join(workspace, '.cursor'));
  const hooksFile = path.join(workspace, '.cursor', 'hooks.json');
  fs.writeFileSync(hooksFile, JSON.stringify({ version: 1, hooks }));
  const e = new Engine({ workspace, sessionId: 'conv-node', hooksFile, ...extra });
  t.after(() => e.close());
  return { e, workspace };
}

const say = (obj) => `cat >/dev/null; printf '%s\\n' '${JSON.stringify(obj)}'`;

// "A Shell call fires preToolUse and then beforeShellExecution"; preToolUse's
// `ask` is "accepted by the schema but not enforced" (dialectFields.cursor),
// the shell hook's deny blocks with its user_message.
test('cursor_shell_hooks_run_in_pre_tool_use_and_their_deny_blocks', async (t) => {
  const { e } = cursorEngine(t, {
    preToolUse: [{ command: say({ permission: 'ask' }) }],
    beforeShellExecution: [{ command: say({ permission: 'deny', user_message: 'no rm', agent_message: 'use trash' }), matcher: 'rm ' }],
  });
  const out = await e.preToolUse({ toolName: 'Shell', toolInput: { command: 'rm -rf build' } });
  assert.equal(out.decision, 'deny');
  assert.equal(out.reason, 'no rm');
  assert.deepEqual(out.dialectFields, { cursor: { permission: 'ask', agent_message: 'use trash' } });
  const ls = e.preToolUseSync({ toolName: 'Shell', toolInput: { command: 'ls' } });
  assert.equal(ls.decision, 'continue');
  assert.equal(ls.hooks.length, 1);
});

// "Exit code 2 - Block the action"; its reason is the raw stdout.
test('cursor_exit_2_denies_with_the_raw_stdout', async (t) => {
  const { e } = cursorEngine(t, { beforeReadFile: [{ command: "cat >/dev/null; echo 'no secrets'; exit 2" }] });
  const out = await e.runNamed('beforeReadFile', { filePath: '/p/.env', content: 'A=1' });
  assert.equal(out.decision, 'deny');
  assert.equal(out.reason, 'no secrets');
});

// stop: `followup_message` keeps the agent working, at most `loop_limit` times
// per script; the hook gets `loop_count`.
test('cursor_stop_follow_ups_are_bounded_by_loop_limit', async (t) => {
  const { e, workspace } = cursorEngine(t, {
    stop: [{ command: `jq -r .loop_count >> counts; ${say({ followup_message: 'keep going' })}`, loop_limit: 2 }],
  }, { dialect: 'cursor' });
  const input = { lastAssistantMessage: 'done', stopHookActive: false, extra: { status: 'completed' } };
  const reasons = [];
  for (let i = 0; i < 3; i++) reasons.push((await e.stop(input)).blockReason);
  assert.deepEqual(reasons, ['keep going', 'keep going', null]);
  assert.equal(fs.readFileSync(path.join(workspace, 'counts'), 'utf8'), '0\n1\n2\n');
  assert.equal(e.previews()[0].dialect, 'cursor');
});
