'use strict';
// The no-match fast path of the Promise API: a run that no hook matches is
// answered in place (hl_engine_try_run_inline, no hookline thread involved);
// any run that has a hook to run still goes to hookline's threads, leaving
// the JS thread free while the hook process runs.

const test = require('node:test');
const assert = require('node:assert/strict');
const { Engine, allow } = require('..');
const callbacks = require('../lib/callbacks');
const { claudePreToolUse, engineOptions } = require('./helpers');

function engine(t, options) {
  const e = new Engine(options);
  t.after(() => e.close());
  return e;
}

test('a_run_no_hook_matches_resolves_without_an_async_run', async (t) => {
  const e = engine(t, engineOptions(t, { hooks: claudePreToolUse(['exit 2'], { matcher: 'Write|Edit' }) }));
  const p = e.preToolUse({ toolName: 'Bash', toolInput: { command: 'ls' } });
  assert.equal(callbacks.pendingRunCount(), 0, 'no async run was submitted');
  const outcome = await p;
  assert.deepEqual(outcome, e.preToolUseSync({ toolName: 'Bash', toolInput: { command: 'ls' } }));
  assert.equal(outcome.decision, 'continue');
  assert.deepEqual(outcome.hooks, []);
  // Every event of an engine without matching hooks takes the same path.
  const s = e.sessionStart();
  assert.equal(callbacks.pendingRunCount(), 0);
  assert.deepEqual((await s).hooks, []);
});

test('a_matching_command_hook_runs_off_the_js_thread', async (t) => {
  const e = engine(t, engineOptions(t, { hooks: claudePreToolUse(['sleep 0.3; exit 0']) }));
  let ticks = 0;
  const timer = setInterval(() => ticks++, 10);
  t.after(() => clearInterval(timer));
  const p = e.preToolUse({ toolName: 'Bash' });
  assert.equal(callbacks.pendingRunCount(), 1, 'the run went to hookline threads');
  const outcome = await p;
  assert.equal(outcome.hooks.length, 1);
  assert.equal(outcome.hooks[0].exitCode, 0);
  assert.ok(ticks >= 5, `the JS thread ran only ${ticks} timer ticks while the hook slept 300 ms`);
});

test('a_matching_callback_hook_still_runs_asynchronously', async (t) => {
  const e = engine(t, engineOptions(t));
  let calls = 0;
  e.addCallbackHook('PreToolUse', 'Bash', 'allow', () => {
    calls++;
    return allow();
  });
  const p = e.preToolUse({ toolName: 'Bash' });
  assert.equal(calls, 0, 'the callback did not run inside preToolUse()');
  assert.equal(callbacks.pendingRunCount(), 1);
  assert.equal((await p).decision, 'allow');
  assert.equal(calls, 1);
  // A tool the callback's matcher does not cover is answered in place.
  const q = e.preToolUse({ toolName: 'Read' });
  assert.equal(callbacks.pendingRunCount(), 0);
  assert.equal((await q).decision, 'continue');
  assert.equal(calls, 1);
});

test('invalid_input_on_the_fast_path_rejects_like_a_run', async (t) => {
  const e = engine(t, engineOptions(t));
  await assert.rejects(e.run(99, {}), (err) => err.status === 4);
  await assert.rejects(e.preToolUse({}), (err) => err.status === 4);
});

test('no_hook_outcomes_are_fresh_objects_the_caller_may_change', async (t) => {
  const e = engine(t, engineOptions(t));
  for (const run of [(i) => e.preToolUseSync(i), (i) => e.preToolUse(i)]) {
    const first = await run({ toolName: 'Bash' });
    first.decision = 'deny';
    first.hooks.push({ kind: 'forged' });
    first.messages.push({ level: 'error', text: 'forged' });
    const second = await run({ toolName: 'Bash' });
    assert.notEqual(second, first);
    assert.equal(second.decision, 'continue');
    assert.deepEqual(second.hooks, []);
    assert.deepEqual(second.messages, []);
    assert.equal(second.continue, true);
  }
  // Every event keeps its own shape (the stored outcome is keyed by its text).
  assert.equal(e.userPromptSubmitSync({ prompt: 'hi' }).allowPrompt, true);
  assert.equal(e.preToolUseSync({ toolName: 'Bash' }).allowPrompt, undefined);
  assert.equal(e.stopSync({}).blockReason, null);
});

test('a_sync_run_inside_a_sync_callback_hook_keeps_both_outcomes_apart', (t) => {
  const e = engine(t, engineOptions(t));
  const inner = [];
  e.addCallbackHook('PreToolUse', 'Bash', 'nested', () => {
    // A run started from a callback during the outer run, on the JS thread.
    inner.push(e.userPromptSubmitSync({ prompt: 'nested' }));
    return allow();
  });
  const outer = e.preToolUseSync({ toolName: 'Bash' });
  assert.equal(outer.decision, 'allow');
  assert.equal(outer.hooks.length, 1);
  assert.equal(inner.length, 1);
  assert.equal(inner[0].allowPrompt, true);
  assert.equal(inner[0].decision, undefined);
});
