'use strict';
// The Claude Code profile through Node: precedence, named events,
// hook_sources, CLAUDE_ENV_FILE (docs/profiles.md).

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { Engine, Status } = require('..');
const { claudePreToolUse, vtPreToolUse, engineOptions } = require('./helpers');

function engine(t, options) {
  const e = new Engine(options);
  t.after(() => e.close());
  return e;
}

const say = (obj) => `cat >/dev/null; printf '%s\\n' '${JSON.stringify(obj)}'`;
const allow = say({ hookSpecificOutput: { permissionDecision: 'allow' } });
const deny = say({ hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'guard' } });

test('claude_pre_tool_use_later_deny_wins_over_earlier_allow', async (t) => {
  const claude = engine(t, engineOptions(t, { hooks: claudePreToolUse([allow, deny]) }));
  const out = await claude.preToolUse({ toolName: 'Bash' });
  assert.equal(out.decision, 'deny');
  assert.equal(out.reason, 'guard');
  assert.equal(out.hooks.length, 2);
  assert.equal(out.hooks[0].failure, null);
  const vt = engine(t, engineOptions(t, { hooks: vtPreToolUse([allow, deny]) }));
  assert.equal(vt.preToolUseSync({ toolName: 'Bash' }).decision, 'allow');
});

test('run_named_fires_an_unknown_event_key', async (t) => {
  const opts = engineOptions(t, {
    hooks: { PostCompact: [{ matcher: 'auto', hooks: [{ type: 'command', command: 'cat > seen.json; echo compacted' }] }] },
  });
  const e = engine(t, opts);
  const out = await e.runNamed('PostCompact', { matcherValue: 'auto' });
  assert.equal(out.hooks.length, 1);
  assert.deepEqual(out.messages.map((m) => m.text), ['compacted']);
  const seen = JSON.parse(fs.readFileSync(path.join(opts.workspace, 'seen.json'), 'utf8'));
  assert.equal(seen.hook_event_name, 'PostCompact');
  assert.equal(e.runNamedSync('PostCompact', { matcherValue: 'manual' }).hooks.length, 0);
  assert.ok('blockReason' in e.runNamedSync('Stop', {}), 'a known event keeps its rules');
  await assert.rejects(e.runNamed('', {}), (err) => err.status === Status.HL_ERR_INVALID_ARGUMENT);
});

test('hook_sources_gate_only_untrusted_sources_and_set_plugin_root', async (t) => {
  const user = { Stop: [{ hooks: [{ type: 'command', command: 'cat >/dev/null; touch user-ran' }] }] };
  const plugin = { Stop: [{ hooks: [{ type: 'command', command: 'cat >/dev/null; printf %s "$CLAUDE_PLUGIN_ROOT" > root' }] }] };
  const opts = engineOptions(t, {
    workspaceGated: true,
    hookSources: [{ hooks: user, trusted: true }, { hooks: plugin, pluginRoot: '/plugins/fmt' }],
  });
  const e = engine(t, opts);
  assert.equal(e.needsApproval, true);
  let out = await e.stop({});
  assert.ok(fs.existsSync(path.join(opts.workspace, 'user-ran')));
  assert.equal(out.hooks[1].skipped, 'not_approved');
  e.approve();
  out = await e.stop({});
  assert.equal(fs.readFileSync(path.join(opts.workspace, 'root'), 'utf8'), '/plugins/fmt');
});

test('session_start_env_file_is_returned_as_env', async (t) => {
  const hooks = { SessionStart: [{ hooks: [{ type: 'command', command: `echo 'export MODE=strict' >> "$CLAUDE_ENV_FILE"` }] }] };
  const e = engine(t, engineOptions(t, { hooks }));
  const out = await e.sessionStart();
  assert.deepEqual(out.env, { MODE: 'strict' });
});

test('claude_subagent_stop_and_pre_compact_block', async (t) => {
  const hooks = {
    SubagentStop: [{ hooks: [{ type: 'command', command: say({ decision: 'block', reason: 'finish the report' }) }] }],
    PreCompact: [{ hooks: [{ type: 'command', command: "cat >/dev/null; echo 'not now' >&2; exit 2" }] }],
  };
  const e = engine(t, engineOptions(t, { hooks }));
  assert.equal((await e.subagentStop({ agentName: 'reviewer' })).blockReason, 'finish the report');
  assert.equal(e.preCompactSync({ trigger: 'auto' }).blockReason, 'not now');
});
