'use strict';
// The process-wide trampolines. Three koffi registrations exist for the life
// of the process (the callback, its finalizer and the async `done`): every JS
// callback and every pending run is an entry in a Map keyed by an integer id
// that travels through `user_data`. hookline calls `free_user_data` exactly
// once per registration, which removes the entry: no koffi slot and no Map
// entry outlive their registration.
//
// Calls that hookline makes from its own threads are queued by koffi to the
// JS thread (the hookline thread waits for the JS function to return), so
// these functions always run on the JS thread.

const { koffi, N, CallbackFn, FreeFn, DoneFn, TraceFn, check, out } = require('./native');

/**
 * A reply built with `allow()`, `deny(message)` or `replyJson(value)`: the
 * JS equivalent of `hl_reply_allow`, `hl_reply_deny`, `hl_reply_set_json`.
 */
class Reply {
  constructor(type, value) {
    this.type = type;
    this.value = value;
    Object.freeze(this);
  }
}

/** Reply "allow" (PreToolUse `permissionDecision: "allow"` in engine callback hooks). */
function allow() {
  return new Reply('allow', undefined);
}
/** Reply "deny" with a message (an engine callback hook: exit 2 with the message on stderr). */
function deny(message = '') {
  return new Reply('deny', String(message));
}
/** Reply with any JSON value (also `null` or `true`, which a plain return value would read differently). */
function replyJson(value) {
  return new Reply('json', value);
}

const handlers = new Map(); // id (BigInt) -> { fn, kind, name, onError }
// (trace handlers: `kind` 'trace'; counted below, for the event loop)
let nextHandlerId = 1n;

/**
 * Store a callback; returns the id to pass as `user_data`. `kind` is
 * 'decide' | 'transform' | 'observer' | 'hook' (engine callback hook).
 */
function addHandler(handler) {
  const id = nextHandlerId++;
  handlers.set(id, handler);
  if (handler.kind === 'trace') {
    traceHandlers++;
    updateKeepAlive();
  }
  return id;
}

/** Forget a callback whose registration failed (hookline will not free it). */
function dropHandler(id) {
  forget(id);
}

function forget(id) {
  const handler = handlers.get(id);
  handlers.delete(id);
  if (handler && handler.kind === 'trace') {
    traceHandlers--;
    updateKeepAlive();
  }
}

function setJson(reply, value) {
  const json = JSON.stringify(value);
  if (json === undefined) throw new TypeError(`callback returned a value that is not JSON (${typeof value})`);
  const err = out();
  check(N.hl_reply_set_json(reply, json, err), err);
}

function applyReply(kind, reply, result) {
  if (kind === 'observer') return; // observers' replies are ignored
  if (result instanceof Reply) {
    if (result.type === 'allow') return void N.hl_reply_allow(reply);
    if (result.type === 'deny') return void N.hl_reply_deny(reply, result.value);
    return setJson(reply, result.value);
  }
  if (result === undefined) return; // no opinion
  if (kind !== 'transform') {
    if (result === null) return;
    if (result === true) return void N.hl_reply_allow(reply);
    if (result === false) return void N.hl_reply_deny(reply, '');
  }
  setJson(reply, result);
}

function isThenable(v) {
  return v !== null && (typeof v === 'object' || typeof v === 'function') && typeof v.then === 'function';
}

// What hookline is told about a failed callback: a thrown Error's message
// (its name when the message is empty), anything else thrown as a string.
function failureReason(err) {
  let text = '';
  try {
    if (err instanceof Error) text = err.message || err.name || 'Error';
    else text = String(err);
  } catch {
    text = '';
  }
  return text.replace(/\0/g, ' ');
}

// hl_reply_fail: the callback failed, and says why (the caller returns 1).
function replyFail(reply, err) {
  try {
    N.hl_reply_fail(reply, failureReason(err));
  } catch {
    // nothing may escape into C
  }
}

function reportError(handler, err) {
  if (typeof handler.onError !== 'function') return;
  try {
    handler.onError(err, { name: handler.name, kind: handler.kind });
  } catch {
    // an error handler that throws must not turn into a second failure
  }
}

// int32_t hl_callback_fn(void *user_data, const char *context_json, size_t len, hl_reply *reply)
function callbackTrampoline(userData, contextJson, _contextLen, reply) {
  const handler = handlers.get(userData);
  if (!handler) return 1;
  try {
    const context = JSON.parse(contextJson);
    const result = handler.fn(context);
    if (isThenable(result)) {
      Promise.resolve(result).catch(() => {});
      throw new TypeError(
        `callback '${handler.name}' returned a Promise: hookline callbacks are synchronous (hookline waits for their reply)`,
      );
    }
    applyReply(handler.kind, reply, result);
    return 0;
  } catch (err) {
    replyFail(reply, err);
    reportError(handler, err);
    return 1; // a callback failure, with its reason
  }
}

// void hl_trace_fn(void *user_data, const char *span_json)
function traceTrampoline(userData, spanJson) {
  const handler = handlers.get(userData);
  if (!handler) return;
  try {
    handler.fn(spanFromWire(JSON.parse(spanJson)));
  } catch (err) {
    reportError(handler, err); // the span is dropped; nothing may escape to C
  }
}

// The host handlers of prompt, agent and mcp_tool hooks (hl_engine_set_handler).
// A handler may be async: a returned Promise defers the reply
// (hl_reply_defer), which is given with hl_deferred_finish once it settles,
// so the JS thread is never blocked while a model or a tool answers. Use
// the async run methods with async handlers: a sync run blocks the JS thread
// and the Promise cannot settle before the hook's timeout.
function finishDeferred(deferred, rc, json) {
  const err = out();
  try {
    N.hl_deferred_finish(deferred, rc, json, err);
    takeStringQuiet(err[0]);
  } catch {
    // nothing may escape into a Promise callback
  }
}

function takeStringQuiet(ptr) {
  if (ptr !== null && ptr !== undefined && ptr !== 0n) N.hl_string_free(ptr);
}

// int32_t hl_callback_fn(void *user_data, const char *request_json, size_t len, hl_reply *reply)
function handlerTrampoline(userData, requestJson, _len, reply) {
  const handler = handlers.get(userData);
  if (!handler) return 1;
  let result;
  try {
    const request = JSON.parse(requestJson);
    const signal = AbortSignal.timeout(Math.max(1, Number(request.timeout_ms) || 1));
    result = handler.fn(request, { signal });
    if (!isThenable(result)) {
      setJson(reply, handler.encode(result));
      return 0;
    }
  } catch (err) {
    replyFail(reply, err);
    reportError(handler, err);
    return 1;
  }
  const deferred = out();
  const err = out();
  let status;
  try {
    status = N.hl_reply_defer(reply, deferred, err);
    check(status, err);
  } catch (e) {
    Promise.resolve(result).catch(() => {});
    reportError(handler, e);
    return 1;
  }
  const slot = deferred[0];
  Promise.resolve(result).then(
    (value) => {
      let json;
      try {
        json = JSON.stringify(handler.encode(value));
      } catch (e) {
        reportError(handler, e);
        return finishDeferred(slot, 1, failureReason(e));
      }
      finishDeferred(slot, 0, json);
    },
    (e) => {
      reportError(handler, e);
      // rc non-zero: the text is the failure's reason (a rejected Promise's message).
      finishDeferred(slot, 1, failureReason(e));
    },
  );
  return 0;
}

/**
 * A span's JSON (docs/c-api.md §12) as the object trace handlers receive:
 * camelCase keys, times as BigInt nanoseconds since the epoch (they do not
 * fit a Number exactly), attributes as they are.
 */
function spanFromWire(w) {
  return {
    traceId: w.trace_id,
    spanId: w.span_id,
    parentSpanId: w.parent_span_id,
    traceFlags: parseInt(w.trace_flags, 16) || 0,
    level: w.level,
    name: w.name,
    startUnixNano: BigInt(w.start_unix_nano),
    endUnixNano: BigInt(w.end_unix_nano),
    status: w.status,
    statusMessage: w.status_message === undefined ? null : w.status_message,
    attributes: w.attributes || {},
  };
}

// void hl_free_fn(void *user_data)
function freeTrampoline(userData) {
  forget(userData);
}

// Pending async runs, trace handlers not yet freed, and a referenced timer
// that keeps the event loop alive while there is any (koffi's cross-thread
// queue does not, and a call from a hookline thread into JS once the loop has
// ended aborts the process). A trace handler may receive a span from
// hookline's delivery thread at any time until its free_user_data: the
// process stays alive until then (the handler is removed, or the engine
// closed).
const runs = new Map(); // id (BigInt) -> { settle(status, outcomeJson, errmsg) }
let nextRunId = 1n;
let traceHandlers = 0;
let keepAlive = null;

function updateKeepAlive() {
  const needed = runs.size > 0 || traceHandlers > 0;
  if (needed && keepAlive === null) keepAlive = setInterval(() => {}, 1 << 30);
  else if (!needed && keepAlive !== null) {
    clearInterval(keepAlive);
    keepAlive = null;
  }
}

function addRun(entry) {
  const id = nextRunId++;
  runs.set(id, entry);
  updateKeepAlive();
  return id;
}

function removeRun(id) {
  const entry = runs.get(id);
  runs.delete(id);
  updateKeepAlive();
  return entry;
}

// void hl_done_fn(void *user_data, hl_status status, const char *outcome_json, const char *errmsg)
function doneTrampoline(userData, status, outcomeJson, errmsg) {
  const entry = removeRun(userData);
  if (!entry) return;
  try {
    entry.settle(status, outcomeJson, errmsg);
  } catch {
    // settle() only resolves or rejects a promise; nothing may escape to C
  }
}

const CALLBACK = koffi.register(callbackTrampoline, koffi.pointer(CallbackFn));
const HANDLER = koffi.register(handlerTrampoline, koffi.pointer(CallbackFn));
const FREE = koffi.register(freeTrampoline, koffi.pointer(FreeFn));
const DONE = koffi.register(doneTrampoline, koffi.pointer(DoneFn));
const TRACE = koffi.register(traceTrampoline, koffi.pointer(TraceFn));

module.exports = {
  CALLBACK,
  HANDLER,
  FREE,
  DONE,
  TRACE,
  Reply,
  allow,
  deny,
  replyJson,
  addHandler,
  dropHandler,
  addRun,
  removeRun,
  /** Live callback registrations (for leak tests). */
  handlerCount: () => handlers.size,
  /** Pending async runs (for leak tests). */
  pendingRunCount: () => runs.size,
};
