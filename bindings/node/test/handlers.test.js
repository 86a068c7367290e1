'use strict';
// Host handlers from JS: setModelHandler (prompt and agent hooks) and
// setMcpHandler (mcp_tool hooks), async handlers answered without blocking
// the JS thread (a deferred reply), failures, timeouts, replacement while a
// run is in flight (docs/protocol.md, "Prompt, agent and mcp_tool hooks").

const test = require('node:test');
const assert = require('node:assert/strict');
const { Engine } = require('..');
const callbacks = require('../lib/callbacks');
const { engineOptions, sleep } = require('./helpers');

function engine(t, event, hooks, extra = {}) {
  const e = new Engine(engineOptions(t, { hooks: { [event]: [{ hooks }] }, ...extra }));
  t.after(() => e.close());
  return e;
}

const STOP = { lastAssistantMessage: 'done', stopHookActive: false };

test('an_async_model_handler_answers_prompt_hooks_without_blocking_the_js_thread', async (t) => {
  const e = engine(t, 'Stop', [{ type: 'prompt', prompt: 'Done? $ARGUMENTS', model: 'fast' }]);
  let seen;
  let ticks = 0;
  const ticker = setInterval(() => ticks++, 1);
  t.after(() => clearInterval(ticker));
  e.setModelHandler(async (req, { signal }) => {
    seen = req;
    assert.equal(signal.aborted, false);
    await sleep(40); // the JS thread keeps turning meanwhile
    return { ok: false, reason: 'tests fail' };
  });
  const out = await e.stop(STOP);
  assert.equal(out.blockReason, 'tests fail');
  assert.ok(ticks > 3, `the event loop was blocked (${ticks} ticks)`);
  assert.equal(seen.type, 'prompt');
  assert.equal(seen.event, 'Stop');
  assert.equal(seen.model, 'fast');
  assert.equal(seen.timeout_ms, 30000);
  assert.equal(seen.input.hook_event_name, 'Stop');
  assert.equal(out.hooks[0].kind, 'prompt');
  assert.equal(out.hooks[0].prompt, 'Done? $ARGUMENTS');
});

test('a_sync_model_handler_works_too_and_agent_hooks_use_it', async (t) => {
  const e = engine(t, 'PreToolUse', [{ type: 'agent', prompt: 'verify' }]);
  e.setModelHandler(() => ({ ok: false, reason: 'no tests' }));
  const out = await e.preToolUse({ toolName: 'Bash', toolInput: { command: 'ls' } });
  assert.equal(out.decision, 'deny');
  assert.equal(out.continue, true, 'an agent hook continues on block');
});

test('a_throwing_or_rejecting_handler_is_a_non_blocking_handler_failure', async (t) => {
  const errors = [];
  const e = engine(t, 'PreToolUse', [{ type: 'prompt', prompt: 'p' }], {
    onCallbackError: (err, info) => errors.push([err.message, info.kind]),
  });
  e.setModelHandler(() => {
    throw new Error('model down');
  });
  let out = await e.preToolUse({ toolName: 'Bash' });
  assert.equal(out.decision, 'continue');
  assert.equal(out.hooks[0].failure, 'handler');
  e.setModelHandler(async () => {
    throw new Error('model rejected');
  });
  out = await e.preToolUse({ toolName: 'Bash' });
  assert.equal(out.hooks[0].failure, 'handler');
  assert.deepEqual(errors.map((x) => x[0]), ['model down', 'model rejected']);
});

test('a_handler_slower_than_the_timeout_times_out_and_its_signal_aborts', async (t) => {
  const e = engine(t, 'Stop', [{ type: 'prompt', prompt: 'p', timeout: 1 }]);
  let aborted = false;
  e.setModelHandler(
    (req, { signal }) =>
      new Promise((resolve) => {
        signal.addEventListener('abort', () => {
          aborted = true;
        });
        setTimeout(() => resolve({ ok: false, reason: 'late' }), 1500);
      }),
  );
  const out = await e.stop(STOP);
  assert.equal(out.hooks[0].failure, 'timeout');
  assert.equal(out.blockReason, null);
  await sleep(600);
  assert.equal(aborted, true);
});

test('a_handler_replaced_while_a_run_is_in_flight_answers_that_run', async (t) => {
  const e = engine(t, 'Stop', [{ type: 'prompt', prompt: 'p', timeout: 30 }]);
  let release;
  const entered = new Promise((resolve) => {
    e.setModelHandler(
      () =>
        new Promise((answer) => {
          release = () => answer({ ok: false, reason: 'first' });
          resolve();
        }),
    );
  });
  const running = e.stop(STOP);
  await entered;
  e.setModelHandler(() => ({ ok: false, reason: 'second' }));
  release();
  assert.equal((await running).blockReason, 'first');
  assert.equal((await e.stop(STOP)).blockReason, 'second');
  e.setModelHandler(null);
  assert.equal((await e.stop(STOP)).hooks[0].failure, 'no_handler');
});

test('an_mcp_handler_gets_filled_input_and_its_text_reads_as_stdout', async (t) => {
  const e = engine(t, 'PostToolUse', [
    { type: 'mcp_tool', server: 'sec', tool: 'scan', input: { cmd: '${tool_input.command}' } },
  ]);
  let seen;
  e.setMcpHandler(async (req) => {
    seen = req;
    return JSON.stringify({ decision: 'block', reason: 'found a key' });
  });
  let out = await e.postToolUse({ toolName: 'Bash', toolInput: { command: 'cat .env' }, toolResponse: 'x' });
  assert.equal(out.blockReason, 'found a key');
  assert.deepEqual(seen.input, { cmd: 'cat .env' });
  assert.equal(out.hooks[0].server, 'sec');
  e.setMcpHandler(() => ({ text: 'not connected', isError: true }));
  out = await e.postToolUse({ toolName: 'Bash', toolResponse: 'x' });
  assert.equal(out.hooks[0].failure, 'tool_error');
});

test('handler_registrations_are_released_on_close', async (t) => {
  const before = callbacks.handlerCount();
  const e = new Engine(engineOptions(t, { hooks: { Stop: [{ hooks: [{ type: 'prompt', prompt: 'p' }] }] } }));
  e.setModelHandler(() => ({ ok: true }));
  e.setMcpHandler(() => '');
  assert.equal(callbacks.handlerCount(), before + 3);
  e.setModelHandler(() => ({ ok: true })); // replaces both
  await e.stop(STOP);
  await e.close();
  assert.equal(callbacks.handlerCount(), before);
});

test('a_rejected_promises_message_is_the_handlers_failure_reason', async (t) => {
  const e = engine(t, 'Stop', [{ type: 'prompt', prompt: 'Done?' }]);
  e.setModelHandler(async () => {
    throw new Error('model unreachable');
  });
  const out = await e.stop(STOP);
  assert.equal(out.hooks[0].failure, 'handler');
  assert.ok(
    out.messages.some((m) => m.text.includes('the prompt handler failed: model unreachable')),
    JSON.stringify(out.messages),
  );
});

test('a_callback_hooks_thrown_message_is_its_stderr', async (t) => {
  const e = new Engine(engineOptions(t, {}));
  t.after(() => e.close());
  e.addCallbackHook('Stop', '', 'boom', () => {
    throw new Error('policy file unreadable');
  });
  const out = await e.stop(STOP);
  assert.deepEqual(
    out.messages.map((m) => m.text),
    ['Stop hook `boom` exited with code 1: policy file unreadable'],
  );
});
