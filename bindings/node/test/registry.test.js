'use strict';
// Registry conformance at the JS level (docs/c-api.md).

const test = require('node:test');
const assert = require('node:assert/strict');
const { Registry, HooklineError, Status, allow, deny, replyJson } = require('..');
const callbacks = require('../lib/callbacks');

function registry(t, options) {
  const r = new Registry(options);
  t.after(() => r.close());
  return r;
}

test('pre_tool_call_decide_first_deny_short_circuits', (t) => {
  const r = registry(t);
  const seen = [];
  r.onPreToolCallDecide('first', () => {
    seen.push('first');
    return { allow: true, message: '' };
  })
    .onPreToolCallDecide('guard', () => {
      seen.push('guard');
      return { allow: false, message: 'rm is not allowed' };
    })
    .onPreToolCallDecide('never', () => {
      seen.push('never');
      return true;
    });
  const result = r.run('pre_tool_call_decide', { tool_name: 'Bash', tool_args: { command: 'rm -rf /' } });
  assert.equal(result.allow, false);
  assert.equal(result.message, 'rm is not allowed');
  assert.deepEqual(result.errors, []);
  assert.deepEqual(seen, ['first', 'guard']);
});

test('pre_tool_call_decide_all_allow_gives_allow_with_empty_message', (t) => {
  const r = registry(t);
  r.onPreToolCallDecide('a', () => true).onPreToolCallDecide('b', () => undefined).onPreToolCallDecide('c', () => allow());
  const result = r.run('pre_tool_call_decide', { tool_name: 'Read' });
  assert.deepEqual(result, { allow: true, message: '', tool_args: null, errors: [] });
});

test('modified_args_merge_shallowly_and_later_callbacks_see_them', (t) => {
  const r = registry(t);
  let seenByLater;
  r.onPreToolCallDecide('sanitize', () => ({ allow: true, modified_args: { command: 'ls', safe: true } }));
  r.onPreToolCallDecide('later', (ctx) => {
    seenByLater = ctx.tool_args;
  });
  const result = r.run('pre_tool_call_decide', { tool_name: 'Bash', tool_args: { command: 'ls -la', cwd: '/' } });
  assert.deepEqual(seenByLater, { command: 'ls', cwd: '/', safe: true });
  assert.equal(result.allow, true);
  assert.deepEqual(result.tool_args, { command: 'ls', cwd: '/', safe: true });
});

test('decide_deny_helper_denies_with_message', (t) => {
  const r = registry(t);
  r.onPreToolCallDecide('policy', () => deny('not today'));
  const result = r.run('pre_tool_call_decide', { tool_name: 'Bash' });
  assert.equal(result.allow, false);
  assert.equal(result.message, 'not today');
});

test('decide_callback_exception_denies_with_hook_name_failed', (t) => {
  const reported = [];
  const r = registry(t, { onCallbackError: (err, info) => reported.push([err.message, info.name, info.kind]) });
  let laterRan = false;
  r.onPreToolCallDecide('boom', () => {
    throw new Error('kaboom');
  });
  r.onPreToolCallDecide('later', () => {
    laterRan = true;
  });
  const result = r.run('pre_tool_call_decide', { tool_name: 'Bash' });
  assert.equal(result.allow, false);
  assert.match(result.message, /hook 'boom' failed/);
  assert.equal(result.errors.length, 1);
  assert.equal(result.errors[0].name, 'boom');
  assert.equal(laterRan, false, 'a failed decide callback stops the run (fail closed)');
  assert.deepEqual(reported, [['kaboom', 'boom', 'decide']]);
});

test('a_thrown_errors_message_is_the_failure_reason', (t) => {
  const r = registry(t);
  r.onPreToolCallDecide('boom', () => {
    throw new Error('policy file unreadable');
  });
  const result = r.run('pre_tool_call_decide', { tool_name: 'Bash' });
  assert.equal(result.allow, false);
  assert.equal(result.message, "hook 'boom' failed: policy file unreadable");
  assert.equal(result.errors[0].message, "hook 'boom' failed: policy file unreadable");
  r.onPostTurn('string', () => {
    throw 'plain string'; // eslint-disable-line no-throw-literal
  });
  const post = r.run('post_turn', { response_text: 'ok', turn_number: 1 });
  assert.deepEqual(
    post.errors.map((e) => e.message),
    ["hook 'string' failed: plain string"],
  );
});

test('returned_promise_is_a_callback_failure', (t) => {
  const r = registry(t);
  r.onPreToolCallDecide('async', async () => ({ allow: true }));
  const result = r.run('pre_tool_call_decide', { tool_name: 'Bash' });
  assert.equal(result.allow, false);
  assert.match(result.message, /hook 'async' failed/);
});

test('aliases_name_and_args_reach_callbacks_as_canonical_fields', (t) => {
  const r = registry(t);
  let seen;
  r.onPreToolCallDecide('look', (ctx) => {
    seen = ctx;
  });
  r.run('pre_tool_call_decide', { name: 'Edit', args: { path: 'a.txt' }, extra: 7 });
  assert.equal(seen.tool_name, 'Edit');
  assert.deepEqual(seen.tool_args, { path: 'a.txt' });
  assert.equal(seen.extra, 7, 'unknown extra fields are passed on');
});

test('transform_chain_each_sees_previous_result', (t) => {
  const r = registry(t);
  const seen = [];
  r.onTransformToolInput('add-flag', (ctx) => {
    seen.push(ctx.tool_args);
    return { ...ctx.tool_args, flag: true };
  });
  r.onTransformToolInput('noop', (ctx) => {
    seen.push(ctx.tool_args);
    return undefined; // no opinion: args kept
  });
  r.onTransformToolInput('wrap', (ctx) => {
    seen.push(ctx.tool_args);
    return { wrapped: ctx.tool_args };
  });
  const result = r.run('transform_tool_input', { tool_name: 'Bash', tool_args: { command: 'ls' } });
  assert.deepEqual(seen, [{ command: 'ls' }, { command: 'ls', flag: true }, { command: 'ls', flag: true }]);
  assert.deepEqual(result.tool_args, { wrapped: { command: 'ls', flag: true } });
  assert.equal(result.allow, true);
});

test('transform_may_set_null_args', (t) => {
  const r = registry(t);
  r.onTransformToolInput('clear', () => null);
  const result = r.run('transform_tool_input', { tool_name: 'Bash', tool_args: { a: 1 } });
  assert.equal(result.tool_args, null);
  const r2 = registry(t);
  r2.onTransformToolInput('literal', () => replyJson(false));
  assert.equal(r2.run('transform_tool_input', { tool_name: 'Bash', tool_args: { a: 1 } }).tool_args, false);
});

test('transform_exception_is_skipped_and_args_kept', (t) => {
  const r = registry(t);
  r.onTransformToolInput('bad', () => {
    throw new Error('nope');
  });
  r.onTransformToolInput('good', (ctx) => ({ ...ctx.tool_args, ok: 1 }));
  const result = r.run('transform_tool_input', { tool_name: 'Bash', tool_args: { a: 1 } });
  assert.deepEqual(result.tool_args, { a: 1, ok: 1 });
  assert.equal(result.errors.length, 1);
  assert.equal(result.errors[0].name, 'bad');
});

test('transform_and_decide_may_share_a_name', (t) => {
  const r = registry(t);
  r.onPreToolCallDecide('same', () => true).onTransformToolInput('same', (c) => c.tool_args);
  assert.deepEqual(
    r.entries().map((e) => [e.name, e.point]),
    [
      ['same', 'pre_tool_call_decide'],
      ['same', 'transform_tool_input'],
    ],
  );
});

test('pre_turn_deny_stops_and_failure_is_listed_but_next_runs', (t) => {
  const r = registry(t);
  const seen = [];
  r.onPreTurn('broken', () => {
    seen.push('broken');
    throw new Error('x');
  });
  r.onPreTurn('budget', (ctx) => {
    seen.push('budget');
    return { allow: ctx.turn_number < 3, message: 'turn budget exhausted' };
  });
  r.onPreTurn('never', () => {
    seen.push('never');
  });
  const result = r.run('pre_turn', { prompt: 'hi', turn_number: 5 });
  assert.equal(result.allow, false);
  assert.equal(result.message, 'turn budget exhausted');
  assert.deepEqual(seen, ['broken', 'budget']);
  assert.deepEqual(
    result.errors.map((e) => e.name),
    ['broken'],
  );
});

test('on_interaction_failure_does_not_block', (t) => {
  const r = registry(t);
  r.onInteraction('broken', () => {
    throw new Error('x');
  });
  const result = r.run('on_interaction', { message: 'hello' });
  assert.equal(result.allow, true);
  assert.equal(result.errors.length, 1);
});

test('observers_all_run_and_failures_are_listed', (t) => {
  const r = registry(t);
  const seen = [];
  r.onPostToolCall('one', (ctx) => {
    seen.push(['one', ctx.result]);
    return { allow: false, message: 'ignored' };
  });
  r.onPostToolCall('two', () => {
    throw new Error('observer failed');
  });
  r.onPostToolCall('three', () => {
    seen.push(['three']);
  });
  const result = r.run('post_tool_call', { tool_name: 'Bash', result: 'ok' });
  assert.equal(result.allow, true, 'observer replies are ignored');
  assert.deepEqual(seen, [['one', 'ok'], ['three']]);
  assert.deepEqual(
    result.errors.map((e) => e.name),
    ['two'],
  );
});

test('every_point_helper_registers_at_its_point', (t) => {
  const r = registry(t);
  const noop = () => {};
  r.onPreTurn('a', noop)
    .onPostTurn('b', noop)
    .onPreToolCallDecide('c', noop)
    .onPostToolCall('d', noop)
    .onCompaction('e', noop)
    .onSessionStart('f', noop)
    .onSessionEnd('g', noop)
    .onToolError('h', noop)
    .onInteraction('i', noop)
    .onTransformToolInput('j', noop);
  assert.deepEqual(r.entries(), [
    { name: 'a', point: 'pre_turn', callback_id: 'a' },
    { name: 'b', point: 'post_turn', callback_id: 'b' },
    { name: 'c', point: 'pre_tool_call_decide', callback_id: 'c' },
    { name: 'd', point: 'post_tool_call', callback_id: 'd' },
    { name: 'e', point: 'on_compaction', callback_id: 'e' },
    { name: 'f', point: 'on_session_start', callback_id: 'f' },
    { name: 'g', point: 'on_session_end', callback_id: 'g' },
    { name: 'h', point: 'on_tool_error', callback_id: 'h' },
    { name: 'i', point: 'on_interaction', callback_id: 'i' },
    { name: 'j', point: 'transform_tool_input', callback_id: 'j' },
  ]);
  const session = { session: { session_id: 's', agent_id: 1 } };
  assert.equal(r.run('on_session_start', session).allow, true);
  assert.equal(r.run('on_session_end', session).allow, true);
  assert.equal(r.run('on_compaction', {}).allow, true);
  assert.equal(r.run('post_turn', { response_text: 'x', turn_number: 1 }).allow, true);
  assert.equal(r.run('on_tool_error', { tool_name: 'Bash', error: 'boom' }).allow, true);
});

test('register_existing_name_replaces_in_place_and_releases_the_old_callback', (t) => {
  const r = registry(t);
  const before = callbacks.handlerCount();
  r.onPreToolCallDecide('a', () => true).onPreToolCallDecide('b', () => true).onPreToolCallDecide('c', () => true);
  r.onPreToolCallDecide('a', () => deny('replaced'));
  assert.equal(callbacks.handlerCount(), before + 3, 'the replaced callback was released');
  assert.deepEqual(
    r.entries().map((e) => e.name),
    ['a', 'b', 'c'],
  );
  assert.equal(r.run('pre_tool_call_decide', { tool_name: 'X' }).message, 'replaced');
});

test('unregister_releases_the_callback_and_unknown_returns_false', (t) => {
  const r = registry(t);
  const before = callbacks.handlerCount();
  r.onPreToolCallDecide('gone', () => deny('still here'));
  assert.equal(callbacks.handlerCount(), before + 1);
  assert.equal(r.unregister('pre_tool_call_decide', 'gone'), true);
  assert.equal(callbacks.handlerCount(), before);
  assert.equal(r.unregister('pre_tool_call_decide', 'gone'), false);
  assert.equal(r.run('pre_tool_call_decide', { tool_name: 'X' }).allow, true);
});

test('close_releases_every_callback_and_later_calls_fail_closed', () => {
  const before = callbacks.handlerCount();
  const r = new Registry();
  for (let i = 0; i < 50; i++) r.onPostTurn(`n${i}`, () => {});
  assert.equal(callbacks.handlerCount(), before + 50);
  r.close();
  r.close(); // idempotent
  assert.equal(callbacks.handlerCount(), before);
  assert.equal(r.closed, true);
  assert.throws(() => r.entries(), (err) => err instanceof HooklineError && err.code === 'HL_ERR_CLOSED');
  assert.throws(() => r.onPreTurn('x', () => {}), (err) => err.status === Status.HL_ERR_CLOSED);
});

test('blank_name_is_invalid_argument_and_registers_nothing', (t) => {
  const r = registry(t);
  const before = callbacks.handlerCount();
  assert.throws(
    () => r.onPreTurn('   ', () => {}),
    (err) => err instanceof HooklineError && err.status === Status.HL_ERR_INVALID_ARGUMENT,
  );
  assert.equal(callbacks.handlerCount(), before, 'a failed registration leaves no JS entry behind');
  assert.deepEqual(r.entries(), []);
});

test('bad_contexts_and_points_are_errors_with_status', (t) => {
  const r = registry(t);
  assert.throws(
    () => r.run('pre_turn', { prompt: 'x' }),
    (err) => err.status === Status.HL_ERR_INVALID_ARGUMENT && /turn_number/.test(err.message),
  );
  assert.throws(() => r.run('pre_turn', [1, 2]), (err) => err.status === Status.HL_ERR_INVALID_ARGUMENT);
  assert.throws(() => r.run('no_such_point', {}), (err) => err.status === Status.HL_ERR_INVALID_ARGUMENT);
  assert.throws(() => r.run(42, {}), (err) => err.status === Status.HL_ERR_INVALID_ARGUMENT);
});

test('callbacks_may_reenter_the_registry', (t) => {
  const r = registry(t);
  r.onPreToolCallDecide('outer', () => {
    r.onPostTurn('added-from-callback', () => {});
    const inner = r.run('pre_turn', { prompt: 'p', turn_number: 1 });
    return { allow: !inner.allow, message: `inner allow=${inner.allow} entries=${r.entries().length}` };
  });
  const result = r.run('pre_tool_call_decide', { tool_name: 'Bash' });
  assert.equal(result.allow, false);
  assert.equal(result.message, 'inner allow=true entries=2');
  assert.equal(r.entries().length, 2);
});

test('the_antigravity_sdk_contract_answers_and_stop_continues', (t) => {
  const r = new Registry({ contract: 'antigravity_sdk' });
  t.after(() => r.close());
  r.on('on_tool_error', 'skip', () => undefined);
  r.on('on_tool_error', 'recover', (ctx) => `recovered from ${ctx.error}`);
  const rec = r.run('on_tool_error', { error: 'ValueError' });
  assert.equal(rec.allow, true);
  assert.equal(rec.answer, 'recovered from ValueError');
  r.on('on_interaction', 'answer', (ctx) => (ctx.spec === 'magic_question' ? 'magic_answer' : null));
  assert.equal(r.run('on_interaction', { spec: 'magic_question' }).answer, 'magic_answer');
  const none = r.run('on_interaction', { spec: 'other' });
  assert.deepEqual([none.allow, none.message, none.answer], [false, 'No interaction hook handled the request', null]);
  r.on('stop', 'more', () => ({ decision: 'CONTINUE', reason: 'Need more work' }));
  const stop = r.run('stop', { response_text: 'done' });
  assert.deepEqual([stop.allow, stop.message], [false, 'Need more work']);
  r.on('pre_turn', 'seen', (ctx) => assert.deepEqual(ctx.prompt, ['image', 'text']));
  assert.equal(r.run('pre_turn', { prompt: ['image', 'text'] }).allow, true);
  assert.throws(() => new Registry({ contract: 'nope' }), /unknown registry contract/);
});

test('on_stop_the_first_continue_keeps_the_agent_going', (t) => {
  const r = new Registry({ contract: 'antigravity_sdk' });
  t.after(() => r.close());
  const seen = [];
  r.onStop('quiet', (c) => { seen.push(c.continuation_count); });
  assert.equal(r.run('stop', { response_text: 'done', continuation_count: 2 }).allow, true, 'no opinion lets it stop');
  r.onStop('tests', (c) => (c.continuation_count < 3 ? { decision: 'continue', reason: 'run the tests first' } : undefined));
  r.onStop('later', () => ({ decision: 'continue', reason: 'not this one' }));
  const first = r.run('stop', { response_text: 'done', continuation_count: 0 });
  assert.deepEqual([first.allow, first.message], [false, 'run the tests first']);
  const later = r.run('stop', { continuation_count: 5 });
  assert.deepEqual([later.allow, later.message], [false, 'not this one']);
  assert.deepEqual(seen, [2, 0, 5]);
});
