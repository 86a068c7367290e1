'use strict';
// The Claude Code rules of the hooks reference through Node: skipped settings
// entries (configWarnings), defer, SubagentStart context, events fired by
// name with rules of their own, the Stop block cap, any SessionStart source.

const test = require('node:test');
const assert = require('node:assert/strict');
const { Engine } = require('..');
const { engineOptions } = require('./helpers');

function engine(t, options) {
  const e = new Engine(options);
  t.after(() => e.close());
  return e;
}

const say = (obj) => `cat >/dev/null; printf '%s\\n' '${JSON.stringify(obj)}'`;
const cmd = (command) => ({ type: 'command', command });

// "Fixed a malformed hooks entry in settings.json no longer invalidating the entire file".
test('config_warnings_name_the_skipped_entries_and_the_rest_loads', async (t) => {
  const hooks = { PreToolUse: [{ hooks: [{ type: 'command' }, cmd("cat >/dev/null; echo guarded >&2; exit 2")] }] };
  const e = engine(t, engineOptions(t, { hooks }));
  const warnings = e.configWarnings();
  assert.equal(warnings.length, 1);
  assert.equal(warnings[0].path, 'hooks.PreToolUse[0].hooks[0]');
  assert.match(warnings[0].message, /must specify a command/);
  const out = await e.preToolUse({ toolName: 'Bash' });
  assert.equal(out.decision, 'deny');
  assert.equal(out.reason, 'guarded');
  assert.deepEqual(engine(t, engineOptions(t, { hooks: { Stop: [{ hooks: [cmd('true')] }] } })).configWarnings(), []);
});

// "precedence is deny > defer > ask > allow".
test('pre_tool_use_defer_is_the_decision_defer', (t) => {
  const d = (x) => cmd(say({ hookSpecificOutput: { permissionDecision: x } }));
  const e = engine(t, engineOptions(t, { hooks: { PreToolUse: [{ hooks: [d('ask'), d('defer'), d('allow')] }] } }));
  assert.equal(e.preToolUseSync({ toolName: 'Bash' }).decision, 'defer');
});

// SubagentStart "can inject context into the subagent"; matchers test agent_type.
test('subagent_start_matches_agent_type_and_returns_additional_context', async (t) => {
  const hooks = {
    SubagentStart: [{ matcher: 'Explore', hooks: [cmd(say({ hookSpecificOutput: { additionalContext: 'be careful' } }))] }],
  };
  const e = engine(t, engineOptions(t, { hooks }));
  const out = await e.subagentStart({ agentType: 'Explore', agentId: 'a1' });
  assert.deepEqual(out.additionalContext, ['be careful']);
  assert.equal(e.subagentStartSync({ agentType: 'Plan', agentName: 'Explore' }).hooks.length, 0);
});

// TaskCreated "Exit code 2 ... cancels the task"; PermissionDenied "retry: true";
// Elicitation "action (accept/decline/cancel), content".
test('named_events_get_the_fields_of_their_family_in_camel_case', async (t) => {
  const hooks = {
    TaskCreated: [{ hooks: [cmd("cat >/dev/null; echo 'needs a ticket' >&2; exit 2")] }],
    PermissionDenied: [{ hooks: [cmd(say({ hookSpecificOutput: { hookEventName: 'PermissionDenied', retry: true } }))] }],
    WorktreeCreate: [{ hooks: [cmd('cat >/dev/null; echo /srv/wt')] }],
    Elicitation: [{ hooks: [cmd(say({ hookSpecificOutput: { action: 'accept', content: { user: 'alice' } } }))] }],
  };
  const e = engine(t, engineOptions(t, { hooks }));
  assert.equal((await e.runNamed('TaskCreated', { taskId: 't1' })).blockReason, 'needs a ticket');
  assert.equal(e.runNamedSync('PermissionDenied', { toolName: 'Bash' }).retry, true);
  assert.equal(e.runNamedSync('WorktreeCreate', { name: 'x' }).worktreePath, '/srv/wt');
  const el = e.runNamedSync('Elicitation', { mcpServerName: 'db' });
  assert.equal(el.action, 'accept');
  assert.deepEqual(el.content, { user: 'alice' });
});

// "Claude Code overrides the hook and ends the turn after 8 consecutive blocks"
// (stopHookBlockCap, here 1); "fork | A new session forked from an existing one".
test('stop_hook_block_cap_and_any_session_start_source', async (t) => {
  const hooks = {
    Stop: [{ hooks: [cmd("cat >/dev/null; echo again >&2; exit 2")] }],
    SessionStart: [{ matcher: 'fork', hooks: [cmd('cat >/dev/null; echo forked')] }],
  };
  const e = engine(t, engineOptions(t, { hooks, stopHookBlockCap: 1, trigger: 'fork' }));
  assert.equal(e.stopSync({}).blockReason, 'again');
  const second = e.stopSync({});
  assert.equal(second.blockReason, null);
  assert.ok(second.messages.some((m) => m.level === 'warning' && /stop_hook_block_cap/.test(m.text)));
  assert.deepEqual((await e.sessionStart()).additionalContext, ['forked']);
});
