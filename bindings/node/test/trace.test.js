'use strict';
// Tracing from Node (docs/c-api.md §12): Engine.setTraceHandler, setTraceContext.

const test = require('node:test');
const assert = require('node:assert/strict');
const { spawnSync } = require('node:child_process');
const { Engine, HooklineError, Status } = require('..');
const callbacks = require('../lib/callbacks');
const { PACKAGE_DIR, claudePreToolUse, engineOptions } = require('./helpers');

const HOST = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
const BASH = { toolName: 'Bash', toolInput: { command: 'ls' }, toolCallId: 'c-1' };

test('a_trace_handler_gets_a_run_span_and_one_span_per_hook_before_close_resolves', async (t) => {
  const e = new Engine(engineOptions(t, { hooks: claudePreToolUse(['echo no >&2; exit 2', 'true']) }));
  const spans = [];
  e.setTraceHandler((s) => spans.push(s));
  const out = await e.preToolUse(BASH);
  assert.equal(out.decision, 'deny');
  await e.close();
  assert.equal(spans.length, 3, JSON.stringify(spans, (k, v) => (typeof v === 'bigint' ? String(v) : v)));
  const run = spans.find((s) => s.level === 'run');
  assert.equal(run.name, 'hooks PreToolUse');
  assert.equal(run.parentSpanId, null);
  assert.equal(run.attributes['hook.decision'], 'deny');
  for (const h of spans.filter((s) => s.level === 'hook')) {
    assert.equal(h.parentSpanId, run.spanId);
    assert.equal(h.traceId, run.traceId);
    assert.ok(run.startUnixNano <= h.startUnixNano && h.endUnixNano <= run.endUnixNano, 'hook inside its run');
    assert.equal(typeof h.startUnixNano, 'bigint');
  }
  const deny = spans.find((s) => s.attributes['hook.exit_code'] === 2);
  assert.equal(deny.attributes['hook.decision'], 'deny');
  assert.equal(deny.status, 'ok');
});

test('a_sync_run_delivers_its_spans_once_the_js_thread_is_free', async (t) => {
  const e = new Engine(engineOptions(t, { hooks: claudePreToolUse(['true']) }));
  const spans = [];
  e.setTraceHandler((s) => spans.push(s));
  e.preToolUseSync(BASH); // the delivery thread waits for this thread meanwhile: no deadlock
  await e.close();
  assert.equal(spans.length, 2);
});

test('the_trace_context_reaches_the_hook_and_an_inputs_own_traceparent_wins', async (t) => {
  const cmd = `printf '{"systemMessage":"%s %s"}' "$TRACEPARENT" "$TRACESTATE"`;
  const e = new Engine(engineOptions(t, { hooks: claudePreToolUse([cmd]) }));
  t.after(() => e.close());
  e.setTraceContext(() => ({ traceparent: HOST, tracestate: 'rojo=1' }));
  const spans = [];
  e.setTraceHandler((s) => spans.push(s));
  let out = await e.preToolUse(BASH);
  const [tp, ts] = out.messages[0].text.split(' ');
  assert.match(tp, /^00-4bf92f3577b34da6a3ce929d0e0e4736-[0-9a-f]{16}-01$/);
  assert.notEqual(tp, HOST, 'the hook gets its own span as the parent');
  assert.equal(ts, 'rojo=1');
  const other = '00-11111111111111111111111111111111-2222222222222222-01';
  out = e.preToolUseSync({ ...BASH, extra: { traceparent: other } });
  assert.match(out.messages[0].text, /^00-11111111111111111111111111111111-/);
  e.setTraceContext(null);
  out = await e.preToolUse(BASH);
  assert.doesNotMatch(out.messages[0].text, /4bf92f3577b34da6a3ce929d0e0e4736|11111111111111111111111111111111/);
});

test('replacing_the_trace_handler_while_runs_are_in_flight_releases_every_registration', async (t) => {
  const before = callbacks.handlerCount();
  const e = new Engine(engineOptions(t, { hooks: claudePreToolUse(['true']) }));
  const seen = [];
  const runs = [];
  for (let i = 0; i < 40; i++) {
    e.setTraceHandler(i % 5 === 4 ? null : (s) => seen.push(s));
    runs.push(e.preToolUse(BASH));
  }
  await Promise.all(runs);
  await e.close();
  assert.ok(seen.length > 0);
  assert.equal(callbacks.handlerCount(), before, 'every handler was freed');
});

test('close_sync_refuses_an_engine_with_a_trace_handler', async (t) => {
  const e = new Engine(engineOptions(t, { hooks: claudePreToolUse(['true']) }));
  e.setTraceHandler(() => {});
  assert.throws(() => e.closeSync(), (err) => err instanceof HooklineError && err.status === Status.HL_ERR_CLOSED);
  await e.close();
  assert.throws(() => e.setTraceHandler(() => {}), (err) => err.status === Status.HL_ERR_CLOSED);
});

test('a_throwing_trace_handler_is_reported_and_does_not_hurt_the_run', async (t) => {
  const errors = [];
  const e = new Engine(engineOptions(t, { hooks: claudePreToolUse(['true']), onCallbackError: (err, info) => errors.push(info) }));
  e.setTraceHandler(() => {
    throw new Error('boom');
  });
  const out = await e.preToolUse(BASH);
  assert.equal(out.hooks.length, 1);
  await e.close();
  assert.deepEqual(errors[0], { name: 'trace handler', kind: 'trace' });
});

test('the_main_package_never_loads_opentelemetry', () => {
  const r = spawnSync(
    process.execPath,
    ['-e', "require('./index.js'); process.stdout.write(String(Object.keys(require.cache).some((k) => k.includes('@opentelemetry'))))"],
    { cwd: PACKAGE_DIR, encoding: 'utf8' },
  );
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, 'false');
});

test('a_process_exits_cleanly_with_every_span_once_the_handler_is_removed_or_the_engine_closed', (t) => {
  const { tempDir } = require('./helpers');
  const dir = tempDir(t);
  const script = `
    const { Engine } = require(${JSON.stringify(PACKAGE_DIR)});
    const e = new Engine({ workspace: ${JSON.stringify(dir)}, sessionId: 's',
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'true' }] }] } });
    let n = 0;
    e.setTraceHandler(() => { n++; });
    const [mode, end] = process.argv.slice(1);
    const finish = () => (end === 'close' ? e.close() : e.setTraceHandler(null));
    if (mode === 'sync') { e.preToolUseSync({ toolName: 'Bash', toolInput: {} }); finish(); }
    else e.preToolUse({ toolName: 'Bash', toolInput: {} }).then(finish);
    process.on('exit', () => process.stdout.write(String(n)));`;
  for (const mode of ['sync', 'async']) {
    for (const end of ['close', 'remove']) {
      const r = spawnSync(process.execPath, ['-e', script, mode, end], { encoding: 'utf8', timeout: 60_000 });
      assert.equal(r.status, 0, `${mode} ${end}: status ${r.status} signal ${r.signal} ${r.stderr}`);
      assert.equal(r.stdout, '2', `${mode} ${end}: both spans delivered before exit`);
    }
  }
});
