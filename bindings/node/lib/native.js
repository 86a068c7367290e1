'use strict';
// Loading libhookline with koffi, the C declarations (docs/c-api.md), and the
// string/status conventions: every `char **` out-parameter is declared as
// `_Out_ void **` so that we keep the pointer, decode it, then release it
// with hl_string_free.

const path = require('node:path');
const koffi = require('koffi');
const { HooklineError } = require('./errors');
const { resolveLibrary, missingLibraryMessage } = require('./platform');

// Every hookline thread that calls into JS (a `done`, a callback hook, a
// finalizer) holds one of koffi's "async call" slots while it waits for the JS
// thread, and koffi crashes the process when a foreign thread finds none free
// (default 256). hookline's blocking pool is capped at 512 threads, so raise
// the limit to koffi's maximum. This is only possible before koffi loads its
// first library in this process.
const WANTED_ASYNC_CALLS = 4096;
const ENOUGH_ASYNC_CALLS = 1024;
try {
  if (koffi.config().max_async_calls < WANTED_ASYNC_CALLS) koffi.config({ max_async_calls: WANTED_ASYNC_CALLS });
} catch {
  // another library loaded something through koffi first; checked below
}
if (koffi.config().max_async_calls < ENOUGH_ASYNC_CALLS) {
  process.emitWarning(
    `koffi was configured before hookline loaded (max_async_calls=${koffi.config().max_async_calls}); ` +
      `more concurrent hookline callbacks than that would crash the process. Require hookline before ` +
      `other koffi users, or call koffi.config({max_async_calls: ${WANTED_ASYNC_CALLS}}) first.`,
    { code: 'HOOKLINE_KOFFI_CONFIG' },
  );
}

const PACKAGE_ROOT = path.resolve(__dirname, '..');
const RESOLVED = resolveLibrary(PACKAGE_ROOT);
if (RESOLVED.path === null) throw new Error(missingLibraryMessage(RESOLVED.platform));
const LIBRARY_PATH = RESOLVED.path;
let lib;
try {
  lib = koffi.load(LIBRARY_PATH);
} catch (err) {
  throw new Error(
    missingLibraryMessage(RESOLVED.platform, `loading ${LIBRARY_PATH} from ${RESOLVED.source} failed: ${err.message}`),
  );
}

// Callback types. If another copy of this package already declared them in
// the same koffi instance, reuse those declarations.
function proto(name, decl) {
  try {
    return koffi.proto(decl);
  } catch (err) {
    return koffi.type(name);
  }
}
const CallbackFn = proto(
  'hl_callback_fn',
  'int32_t hl_callback_fn(void *user_data, const char *context_json, size_t context_len, void *reply)',
);
const FreeFn = proto('hl_free_fn', 'void hl_free_fn(void *user_data)');
const DoneFn = proto(
  'hl_done_fn',
  'void hl_done_fn(void *user_data, int32_t status, const char *outcome_json, const char *errmsg)',
);
const TraceFn = proto('hl_trace_fn', 'void hl_trace_fn(void *user_data, const char *span_json)');

// Handles (hl_engine *, hl_registry *, hl_reply *) are `void *` (BigInt in JS).
const DECLS = {
  hl_version: 'const char *hl_version()',
  hl_status_name: 'const char *hl_status_name(int32_t status)',
  hl_string_free: 'void hl_string_free(void *s)',
  hl_reply_set_json: 'int32_t hl_reply_set_json(void *reply, const char *json, _Out_ void **errmsg)',
  hl_reply_allow: 'int32_t hl_reply_allow(void *reply)',
  hl_reply_deny: 'int32_t hl_reply_deny(void *reply, const char *message)',
  hl_reply_fail: 'int32_t hl_reply_fail(void *reply, const char *message)',
  hl_reply_defer: 'int32_t hl_reply_defer(void *reply, _Out_ void **deferred, _Out_ void **errmsg)',
  hl_deferred_finish:
    'int32_t hl_deferred_finish(void *deferred, int32_t rc, const char *reply_json, _Out_ void **errmsg)',

  hl_registry_new: 'void *hl_registry_new()',
  hl_registry_new_with_contract: 'int32_t hl_registry_new_with_contract(int32_t contract, _Out_ void **out, _Out_ void **errmsg)',
  hl_registry_free: 'void hl_registry_free(void *registry)',
  hl_registry_register:
    'int32_t hl_registry_register(void *registry, int32_t point, const char *name, hl_callback_fn *cb, ' +
    'void *user_data, hl_free_fn *free_user_data, _Out_ void **errmsg)',
  hl_registry_unregister:
    'int32_t hl_registry_unregister(void *registry, int32_t point, const char *name, _Out_ void **errmsg)',
  // Hot calls take their out-parameters as raw pointers to Slots (below).
  hl_registry_run:
    'int32_t hl_registry_run(void *registry, int32_t point, const char *context_json, ' +
    'void *result_json, void *errmsg)',
  hl_registry_entries: 'int32_t hl_registry_entries(void *registry, _Out_ void **entries_json, _Out_ void **errmsg)',
  hl_point_name: 'const char *hl_point_name(int32_t point)',

  hl_engine_new: 'int32_t hl_engine_new(const char *options_json, _Out_ void **out, _Out_ void **errmsg)',
  hl_engine_free: 'void hl_engine_free(void *engine)',
  hl_engine_run:
    'int32_t hl_engine_run(void *engine, int32_t event, const char *input_json, ' +
    'void *outcome_json, void *errmsg)',
  hl_engine_run_async:
    'int32_t hl_engine_run_async(void *engine, int32_t event, const char *input_json, hl_done_fn *done, ' +
    'void *user_data, void *run_id, void *errmsg)',
  hl_engine_run_named:
    'int32_t hl_engine_run_named(void *engine, const char *event_name, const char *input_json, ' +
    'void *outcome_json, void *errmsg)',
  hl_engine_run_named_async:
    'int32_t hl_engine_run_named_async(void *engine, const char *event_name, const char *input_json, ' +
    'hl_done_fn *done, void *user_data, void *run_id, void *errmsg)',
  hl_engine_cancel: 'int32_t hl_engine_cancel(void *engine, uint64_t run_id, _Out_ void **errmsg)',
  hl_engine_try_run_inline:
    'int32_t hl_engine_try_run_inline(void *engine, int32_t event, const char *input_json, void *ran, ' +
    'void *outcome_json, void *errmsg)',
  hl_engine_add_callback_hook:
    'int32_t hl_engine_add_callback_hook(void *engine, int32_t event, const char *matcher, const char *name, ' +
    'hl_callback_fn *cb, void *user_data, hl_free_fn *free_user_data, _Out_ void **errmsg)',
  hl_engine_set_handler:
    'int32_t hl_engine_set_handler(void *engine, const char *handler_type, hl_callback_fn *cb, ' +
    'void *user_data, hl_free_fn *free_user_data, _Out_ void **errmsg)',
  hl_engine_reload: 'int32_t hl_engine_reload(void *engine, const char *options_json, _Out_ void **errmsg)',
  hl_engine_set_transcript_path:
    'int32_t hl_engine_set_transcript_path(void *engine, const char *path_or_null, _Out_ void **errmsg)',
  hl_engine_transcript_path:
    'int32_t hl_engine_transcript_path(void *engine, _Out_ void **path_or_null, _Out_ void **errmsg)',
  hl_engine_command_digest: 'int32_t hl_engine_command_digest(void *engine, _Out_ void **hex, _Out_ void **errmsg)',
  hl_engine_command_previews:
    'int32_t hl_engine_command_previews(void *engine, _Out_ void **previews_json, _Out_ void **errmsg)',
  hl_engine_config_warnings:
    'int32_t hl_engine_config_warnings(void *engine, _Out_ void **warnings_json, _Out_ void **errmsg)',
  hl_engine_approve_workspace_hooks:
    'int32_t hl_engine_approve_workspace_hooks(void *engine, bool persist, _Out_ void **errmsg)',
  hl_engine_workspace_gated: 'bool hl_engine_workspace_gated(void *engine)',
  hl_engine_workspace_hooks_need_approval: 'bool hl_engine_workspace_hooks_need_approval(void *engine)',
  hl_engine_set_trace_handler:
    'int32_t hl_engine_set_trace_handler(void *engine, hl_trace_fn *fn, void *user_data, hl_free_fn *free, ' +
    '_Out_ void **errmsg)',
  hl_event_name: 'const char *hl_event_name(int32_t event)',
};

// Functions are bound on first use, so that a library missing some symbols
// (an older build) still serves the others and names what is missing.
const bound = new Map();
function bind(name) {
  let f = bound.get(name);
  if (!f) {
    try {
      f = lib.func(DECLS[name]);
    } catch (err) {
      throw new Error(`hookline: '${LIBRARY_PATH}' does not provide ${name} (${err.message}); rebuild the library`);
    }
    bound.set(name, f);
  }
  return f;
}

/** The C functions, bound lazily: `N.hl_engine_new(...)`. */
const N = {};
for (const name of Object.keys(DECLS)) {
  // Bound on first access, then kept as a plain property (no lookup per call).
  Object.defineProperty(N, name, {
    enumerable: true,
    configurable: true,
    get: () => {
      const f = bind(name);
      Object.defineProperty(N, name, { enumerable: true, value: f });
      return f;
    },
  });
}

/** Decode a string returned by hookline and release it (NULL → null). */
function takeString(ptr) {
  if (ptr === null || ptr === undefined || ptr === 0n) return null;
  try {
    return koffi.decode.string(ptr);
  } finally {
    N.hl_string_free(ptr);
  }
}

/**
 * Release the error message in `errOut[0]` and throw a HooklineError when
 * `status` is not HL_OK.
 */
function check(status, errOut) {
  const message = takeString(errOut[0]);
  errOut[0] = null;
  if (status !== 0) throw new HooklineError(status, message);
}

/** A fresh one-element array for an `_Out_ void **` parameter. */
function out() {
  return [null];
}

/**
 * Out-parameters of the calls on every run's path (hl_engine_run and its
 * variants, hl_registry_run): three 8-byte buffers passed as raw pointers.
 * koffi's `_Out_` arrays cost more than a whole run that matches no hook
 * (about 1.5 µs for two of them), raw buffers almost nothing. One set per
 * nesting depth: a callback hook may start a run while a call is in flight.
 */
class Slots {
  constructor() {
    this.a = Buffer.alloc(8);
    this.b = Buffer.alloc(8);
    this.c = Buffer.alloc(8);
  }

  /** Zero all three (the library writes them only on some paths). */
  clear() {
    this.a.fill(0);
    this.b.fill(0);
    this.c.fill(0);
  }
}
const slotsByDepth = [];
let slotDepth = 0;

/** Call `fn(slots)` with cleared slots of its own (re-entrant). */
function withSlots(fn) {
  let slots = slotsByDepth[slotDepth];
  if (slots === undefined) {
    slots = new Slots();
    slotsByDepth[slotDepth] = slots;
  }
  slots.clear();
  slotDepth++;
  try {
    return fn(slots);
  } finally {
    slotDepth--;
  }
}

/** The pointer a slot holds (null for NULL). */
function slotPointer(buf) {
  return koffi.decode(buf, 'void *');
}

/** The string a slot points to, released with hl_string_free (null for NULL). */
function takeSlotString(buf) {
  return takeString(slotPointer(buf));
}

/** `check` for an error message in a slot. */
function checkSlot(status, errSlot) {
  const message = takeSlotString(errSlot);
  if (status !== 0) throw new HooklineError(status, message);
}

module.exports = {
  koffi,
  N,
  LIBRARY_PATH,
  CallbackFn,
  FreeFn,
  DoneFn,
  TraceFn,
  takeString,
  check,
  out,
  withSlots,
  slotPointer,
  takeSlotString,
  checkSlot,
};
