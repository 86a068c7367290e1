'use strict';
// The C ABI stays usable from the ffi-napi API (docs/c-api.md): the core calls are
// driven through the maintained fork @2060.io/ffi-napi (+ @2060.io/ref-napi),
// without koffi. Outside CI it is skipped, with the reason printed, when the
// fork's native addon is not installed (it builds with node-gyp at install
// time); under CI=true a missing addon fails the test instead.

const test = require('node:test');
const assert = require('node:assert/strict');
const { engineOptions } = require('./helpers');

let ffi;
let ref;
let skipReason = false;
try {
  ffi = require('@2060.io/ffi-napi');
  ref = require('@2060.io/ref-napi');
} catch (err) {
  skipReason = `@2060.io/ffi-napi is not usable here (${err.message.split('\n')[0]}); ` +
    'run `npm install` with a C toolchain so its node-gyp build can run';
  if (!process.env.CI) console.log(`ffi-napi compatibility test skipped: ${skipReason}`);
}
// Under CI the dependency is part of the setup: its absence is a failure.
const skip = process.env.CI ? false : skipReason;
function requireDependency() {
  if (skipReason) assert.fail(`CI=true but ${skipReason}`);
}

function libraryPath() {
  if (process.env.HOOKLINE_LIB) return process.env.HOOKLINE_LIB;
  // Same resolution as the koffi loader.
  return require('../lib/native').LIBRARY_PATH;
}

function load() {
  const voidPtr = ref.refType(ref.types.void);
  const voidPtrPtr = ref.refType(voidPtr);
  const lib = ffi.Library(libraryPath(), {
    hl_version: ['string', []],
    hl_status_name: ['string', ['int32']],
    hl_string_free: ['void', [voidPtr]],
    hl_reply_deny: ['int32', [voidPtr, 'string']],
    hl_reply_set_json: ['int32', [voidPtr, 'string', voidPtrPtr]],
    hl_registry_new: [voidPtr, []],
    hl_registry_free: ['void', [voidPtr]],
    hl_registry_register: ['int32', [voidPtr, 'int32', 'string', 'pointer', voidPtr, 'pointer', voidPtrPtr]],
    hl_registry_run: ['int32', [voidPtr, 'int32', 'string', voidPtrPtr, voidPtrPtr]],
    hl_engine_new: ['int32', ['string', voidPtrPtr, voidPtrPtr]],
    hl_engine_run: ['int32', [voidPtr, 'int32', 'string', voidPtrPtr, voidPtrPtr]],
    hl_engine_run_async: ['int32', [voidPtr, 'int32', 'string', 'pointer', voidPtr, ref.refType('uint64'), voidPtrPtr]],
    hl_engine_free: ['void', [voidPtr]],
  });
  /** A `char **` out-slot, and how to read and free what it received. */
  const slot = () => ref.alloc(voidPtr, ref.NULL);
  const take = (s) => {
    const p = s.deref();
    if (p.isNull()) return null;
    const text = ref.readCString(p, 0);
    lib.hl_string_free(p);
    return text;
  };
  return { lib, voidPtr, slot, take };
}

const HL_POINT_PRE_TOOL_CALL_DECIDE = 2;
const HL_EVENT_PRE_TOOL_USE = 5;

test('ffi_napi_drives_registry_with_a_js_callback', { skip }, () => {
  requireDependency();
  const { lib, voidPtr, slot, take } = load();
  assert.match(lib.hl_version(), /^\d+\.\d+\.\d+/);
  assert.equal(lib.hl_status_name(3), 'HL_ERR_INVALID_JSON');

  const userData = Buffer.alloc(8);
  let seen = null;
  let freedWith = null;
  const cb = ffi.Callback('int32', [voidPtr, 'string', 'size_t', voidPtr], (ud, context, len, reply) => {
    seen = { same: ud.address() === userData.address(), context: JSON.parse(context), len };
    lib.hl_reply_deny(reply, 'denied through ffi-napi');
    return 0;
  });
  const free = ffi.Callback('void', [voidPtr], (ud) => {
    freedWith = ud.address();
  });

  const reg = lib.hl_registry_new();
  assert.equal(reg.isNull(), false);
  const err = slot();
  assert.equal(lib.hl_registry_register(reg, HL_POINT_PRE_TOOL_CALL_DECIDE, 'ffi', cb, userData, free, err), 0, take(err));
  const result = slot();
  const context = JSON.stringify({ tool_name: 'Bash', tool_args: { command: 'rm' } });
  assert.equal(lib.hl_registry_run(reg, HL_POINT_PRE_TOOL_CALL_DECIDE, context, result, err), 0, take(err));
  assert.deepEqual(JSON.parse(take(result)), {
    allow: false,
    message: 'denied through ffi-napi',
    tool_args: null,
    errors: [],
  });
  assert.equal(seen.same, true, 'user_data round-trips');
  assert.deepEqual(seen.context, { tool_name: 'Bash', tool_args: { command: 'rm' } });
  assert.equal(seen.len, Buffer.byteLength(JSON.stringify(seen.context)));

  // Errors come back as a status plus a message to free.
  assert.equal(lib.hl_registry_run(reg, HL_POINT_PRE_TOOL_CALL_DECIDE, '{"tool_name":', result, err), 3);
  assert.match(take(err), /./);
  assert.equal(result.deref().isNull(), true, 'no partial success');

  lib.hl_registry_free(reg);
  assert.equal(freedWith, userData.address(), 'free_user_data ran once, with the user_data');
});

test('ffi_napi_drives_engine_new_run_and_free', { skip }, async (t) => {
  requireDependency();
  const { lib, slot, take } = load();
  const opts = engineOptions(t);
  const options = JSON.stringify({
    workspace: opts.workspace,
    session_id: 'ffi-napi',
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ command: "echo 'no via ffi-napi' >&2; exit 2" }] }] },
  });
  const handle = slot();
  const err = slot();
  assert.equal(lib.hl_engine_new(options, handle, err), 0, take(err));
  const engine = handle.deref();
  assert.equal(engine.isNull(), false);

  const outcome = slot();
  const input = JSON.stringify({ tool_name: 'Bash', tool_input: { command: 'ls' } });
  assert.equal(lib.hl_engine_run(engine, HL_EVENT_PRE_TOOL_USE, input, outcome, err), 0, take(err));
  const o = JSON.parse(take(outcome));
  assert.equal(o.decision, 'deny');
  assert.equal(o.reason, 'no via ffi-napi');

  // Asynchronous run: ffi-napi queues the call from hookline's thread to the JS thread.
  const runId = ref.alloc('uint64', 0);
  const doneResult = new Promise((resolve) => {
    const done = ffi.Callback('void', ['pointer', 'int32', 'string', 'string'], (ud, status, json, msg) => {
      resolve({ status, json, msg });
    });
    assert.equal(lib.hl_engine_run_async(engine, HL_EVENT_PRE_TOOL_USE, input, done, ref.NULL, runId, err), 0, take(err));
    t.after(() => done); // keep the callback reachable until the test ends
  });
  // ffi-napi's cross-thread queue does not keep the event loop alive by itself.
  const keepAlive = setInterval(() => {}, 1000);
  const d = await doneResult;
  clearInterval(keepAlive);
  assert.equal(d.status, 0);
  assert.equal(d.msg, null);
  assert.equal(JSON.parse(d.json).decision, 'deny');

  // Bad input: a status and a message, nothing written.
  assert.equal(lib.hl_engine_run(engine, 99, input, outcome, err), 4);
  assert.match(take(err), /./);
  assert.equal(outcome.deref().isNull(), true);

  // hl_engine_free waits until every `done` has returned, and ffi-napi lets
  // hookline's thread return only once the JS thread is free: free it from
  // a worker thread (`.async`) so the JS thread is never blocked on that.
  await new Promise((resolve, reject) => lib.hl_engine_free.async(engine, (e) => (e ? reject(e) : resolve())));
});
