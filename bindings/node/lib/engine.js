'use strict';
// hl_engine: configured shell hooks and host callback hooks at lifecycle
// events (docs/protocol.md). The JS API speaks camelCase (options, inputs, outcomes);
// hook payloads and hook replies stay in the hooks wire protocol (snake_case
// payload, Claude Code JSON output).

const { N, check, out, takeString, withSlots, slotPointer, checkSlot } = require('./native');
const { HooklineError, AbortError, Status } = require('./errors');
const { CALLBACK, HANDLER, FREE, DONE, TRACE, addHandler, dropHandler, addRun, removeRun } = require('./callbacks');

/** A model verdict as the library reads it: `{ok, reason, impossible}`. */
function encodeModelReply(v) {
  if (v === null || typeof v !== 'object') throw new TypeError('a model handler must return { ok, reason }');
  const reply = { ok: !!v.ok };
  if (v.reason !== undefined && v.reason !== null) reply.reason = String(v.reason);
  if (v.impossible) reply.impossible = true;
  return reply;
}

/** An MCP tool result: a string is its text; `{text, isError}` or an MCP `{content, isError}` as given. */
function encodeMcpReply(v) {
  if (typeof v === 'string') return { content: [{ type: 'text', text: v }] };
  if (v === null || v === undefined) return { content: [] };
  if (typeof v === 'object' && Array.isArray(v.content)) return { content: v.content, isError: !!v.isError };
  if (typeof v === 'object') return { content: [{ type: 'text', text: String(v.text ?? '') }], isError: !!v.isError };
  throw new TypeError('an MCP handler must return a string or { text, isError }');
}

/** Event names → `hl_event` numbers. */
const HookEvent = Object.freeze({
  SessionStart: 0,
  SessionEnd: 1,
  SubagentStart: 2,
  SubagentStop: 3,
  UserPromptSubmit: 4,
  PreToolUse: 5,
  PostToolUse: 6,
  PermissionRequest: 7,
  PreCompact: 8,
  Stop: 9,
  Notification: 10,
  PostToolUseFailure: 11,
});

// Key conversions are memoized: the same few keys cross on every run.
function memoKeys(convert) {
  const cache = new Map();
  return (k) => {
    let r = cache.get(k);
    if (r === undefined) {
      r = convert(k);
      if (cache.size < 4096) cache.set(k, r);
    }
    return r;
  };
}
const snakeKey = memoKeys((k) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`));
const camelKey = memoKeys((k) => k.replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase()));

const EVENT_BY_KEY = Object.freeze(
  Object.fromEntries(Object.entries(HookEvent).map(([name, n]) => [snakeKey(name).slice(1), n])),
);

/** An event given as a number, a name (`"PreToolUse"`) or a config key (`"pre_tool_use"`). */
function eventNumber(event) {
  if (typeof event === 'number') return event; // out-of-range values are the library's to reject
  if (typeof event === 'string') {
    if (Object.prototype.hasOwnProperty.call(HookEvent, event)) return HookEvent[event];
    if (Object.prototype.hasOwnProperty.call(EVENT_BY_KEY, event)) return EVENT_BY_KEY[event];
  }
  throw new HooklineError(Status.HL_ERR_INVALID_ARGUMENT, `unknown event ${JSON.stringify(event)}`);
}

function isPlainObject(v) {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Top-level keys camelCase → snake_case; values (tool input, hooks config, env) untouched. */
function snakeKeys(obj) {
  if (!isPlainObject(obj)) return obj;
  const r = {};
  for (const k of Object.keys(obj)) r[snakeKey(k)] = obj[k];
  return r;
}

/** Top-level keys snake_case → camelCase; values untouched. */
function camelKeys(obj) {
  if (!isPlainObject(obj)) return obj;
  const r = {};
  for (const [k, v] of Object.entries(obj)) r[camelKey(k)] = v;
  return r;
}

/** An outcome_json object in camelCase: top level, `hooks[]`, `messages[]`, a PermissionRequest `decision`. */
function outcomeFromWire(o) {
  const r = camelKeys(o);
  if (!isPlainObject(o)) return r;
  if (Array.isArray(o.hooks)) r.hooks = o.hooks.map(camelKeys);
  if (Array.isArray(o.messages)) r.messages = o.messages.map(camelKeys);
  if (isPlainObject(o.decision)) r.decision = camelKeys(o.decision);
  return r;
}

/**
 * A decoded outcome that no hook contributed to (every array empty, no
 * object inside), kept with its exact text: the outcome of a run that
 * matched no hook is the same text every time for an event, and it is the
 * common case on the path of every tool call. A hit costs a string
 * comparison and a shallow copy instead of JSON.parse and the key conversion.
 */
const NO_HOOK_OUTCOMES = []; // {text, template (camelCase, never handed out), arrayKeys}
const NO_HOOK_OUTCOMES_MAX = 32;

function isEmptyOutcome(o) {
  for (const k in o) {
    const v = o[k];
    if (Array.isArray(v) ? v.length !== 0 : v !== null && typeof v === 'object') return false;
  }
  return true;
}

/** A fresh copy of an empty outcome: its own empty arrays. */
function copyEmptyOutcome(entry) {
  const r = { ...entry.template };
  for (const k of entry.arrayKeys) r[k] = [];
  return r;
}

/** outcome_json text → the camelCase outcome object the API returns. */
function outcomeFromText(text) {
  for (let i = 0; i < NO_HOOK_OUTCOMES.length; i++) {
    if (NO_HOOK_OUTCOMES[i].text === text) return copyEmptyOutcome(NO_HOOK_OUTCOMES[i]);
  }
  const o = outcomeFromWire(JSON.parse(text));
  if (isPlainObject(o) && isEmptyOutcome(o) && NO_HOOK_OUTCOMES.length < NO_HOOK_OUTCOMES_MAX) {
    const arrayKeys = Object.keys(o).filter((k) => Array.isArray(o[k]));
    NO_HOOK_OUTCOMES.push({ text, template: { ...o }, arrayKeys });
  }
  return o;
}

/**
 * Engine options as wire JSON (`json`), and the names the caller wrote
 * (`names`: wire key → the caller's key, at the top level and per
 * `hookSources` entry), so that the library's messages about options can be
 * told in the caller's words (optionError).
 */
function optionsWire(options) {
  if (!isPlainObject(options)) {
    throw new HooklineError(Status.HL_ERR_INVALID_ARGUMENT, 'engine options must be an object');
  }
  const { onCallbackError, ...rest } = options;
  const names = { top: new Map(), sources: [] };
  const wire = snakeKeysNamed(rest, names.top);
  // hook_sources entries are option objects too: their own keys in snake_case.
  if (Array.isArray(wire.hook_sources)) {
    wire.hook_sources = wire.hook_sources.map((source, i) => {
      names.sources[i] = new Map();
      return snakeKeysNamed(source, names.sources[i]);
    });
  }
  return { json: JSON.stringify(wire), names };
}

/** snakeKeys, recording wire key → original key in `names`. */
function snakeKeysNamed(obj, names) {
  if (!isPlainObject(obj)) return obj;
  const r = {};
  for (const k of Object.keys(obj)) {
    const w = snakeKey(k);
    r[w] = obj[k];
    names.set(w, k);
  }
  return r;
}

/**
 * The library names options by their wire (snake_case) keys; this API takes
 * camelCase. Each option the message names becomes the key the caller wrote
 * (`sessionID`, not its wire form `session_i_d`), or the camelCase name of an
 * option the caller did not write (`sessionId is required`, `did you mean
 * sessionId`). Values inside an option, such as the variable names of `env.X`,
 * are kept. Only messages about options are rewritten.
 */
function optionMessage(message, names) {
  if (!/^(unknown option `|option `|at most one hooks source)/.test(message)) return message;
  const top = (w) => names.top.get(w) ?? camelKey(w);
  const path = (token) => {
    if (names.top.has(token)) return names.top.get(token);
    const source = /^hook_sources\[(\d+)\](?:\.(.*))?$/s.exec(token);
    if (source) {
      const [, i, key] = source;
      const inner = key === undefined ? '' : `.${names.sources[i]?.get(key) ?? camelKey(key)}`;
      return `${top('hook_sources')}[${i}]${inner}`;
    }
    const head = /^([a-z0-9_]+)([.[].*)?$/s.exec(token);
    return head ? `${top(head[1])}${head[2] ?? ''}` : token;
  };
  return message
    .replace(/`([^`]*)`/g, (_, token) => `\`${path(token)}\``)
    .replace(/\b(one of|replaces|got) ([a-z_]+(?:(?:, | and )[a-z_]+)*)/g, (_, lead, list) =>
      `${lead} ${list.replace(/[a-z_]+/g, (w) => (w === 'and' ? w : top(w)))}`,
    );
}

/** Call `fn`; an error it throws about options speaks the caller's option names. */
function withOptionNames(names, fn) {
  try {
    return fn();
  } catch (err) {
    if (err instanceof HooklineError) {
      const message = optionMessage(err.message, names);
      if (message !== err.message) throw new HooklineError(err.status, message);
    }
    throw err;
  }
}

/**
 * An event input as wire JSON: top-level keys camelCase → snake_case; the
 * fields of `input.extra` are added verbatim (their keys unchanged), for
 * pass-through fields the typed inputs do not name (e.g. `permission_mode`).
 * A typed field wins over an `extra` field of the same wire name.
 */
function inputJson(input, traceContext = null) {
  if (input === undefined) input = {};
  if (!isPlainObject(input)) return JSON.stringify(input); // the library rejects what is not an object
  const { extra, ...fields } = input;
  const wire = snakeKeys(fields);
  if (extra !== undefined && extra !== null) {
    if (!isPlainObject(extra)) {
      throw new HooklineError(Status.HL_ERR_INVALID_ARGUMENT, 'input `extra` must be an object of pass-through fields');
    }
    for (const [k, v] of Object.entries(extra)) {
      if (!Object.prototype.hasOwnProperty.call(wire, k)) wire[k] = v;
    }
  }
  return JSON.stringify(withTraceContext(wire, traceContext));
}

/**
 * The trace context the engine's `setTraceContext` function finds now (the
 * active context, for the OpenTelemetry adapter), put ahead of the input's
 * fields: an input that has its own `traceparent` keeps it.
 */
function withTraceContext(wire, traceContext) {
  if (traceContext === null || Object.prototype.hasOwnProperty.call(wire, 'traceparent')) return wire;
  const tc = traceContext();
  if (!tc || typeof tc.traceparent !== 'string' || tc.traceparent === '') return wire;
  const head = { traceparent: tc.traceparent };
  if (typeof tc.tracestate === 'string' && tc.tracestate !== '') head.tracestate = tc.tracestate;
  return { ...head, ...wire };
}

const EVENT_NAMES = Object.freeze(Object.fromEntries(Object.entries(HookEvent).map(([name, n]) => [n, name])));

/** The rejection of a run that close() interrupted (the same wording as the Go binding). */

const ignore = () => {};

function abortError(signal) {
  return new AbortError('The hookline run was aborted', { cause: signal.reason });
}

function nameArg(name) {
  return name === null || name === undefined ? null : String(name);
}

/**
 * The outcome of a run that no hook matches, answered in place by
 * hl_engine_try_run_inline (it never blocks), or null when hooks would run.
 * Throws for invalid input, like the run itself would.
 */
function tryRunInline(ptr, ev, json) {
  return withSlots((s) => {
    const status = N.hl_engine_try_run_inline(ptr, ev, json, s.a, s.b, s.c);
    const ran = s.a[0] !== 0;
    const outcome = slotPointer(s.b);
    checkSlot(status, s.c);
    return ran ? outcomeFromText(takeString(outcome)) : null;
  });
}

// An engine collected without close(): free it off the JS thread (hookline
// releases its callback hooks, calling free_user_data, before the free returns).
const finalizer = new FinalizationRegistry((ptr) => N.hl_engine_free.async(ptr, () => {}));

/**
 * A lifecycle-hook engine: configured shell hooks and callback hooks per event.
 *
 * Options are those of `hl_engine_new` (docs/protocol.md) in camelCase (`workspace`, `sessionId`, `trigger`,
 * `workspaceGated`, `hooks` | `hooksToml` | `hooksFile`, `transcriptPath`,
 * `trustStore`, `env`, `envRemove`, `maxOutputBytes`, `hookSources`); keys already in
 * snake_case pass through unchanged. `onCallbackError(error, {name, kind})`
 * is told about exceptions thrown by callback hooks.
 */
class Engine {
  #ptr;
  #onError;
  #closing = null;
  // Runs that closeSync() must not free under: an async run's completion
  // needs the JS thread, and a sync run may still call its callback hooks.
  #inflight = new Set(); // ids of pending async runs
  #syncDepth = 0; // sync runs on the stack (re-entrant calls from callbacks)
  #traceContext = null; // setTraceContext
  #traced = false; // a trace handler was set: spans may wait for the JS thread

  constructor(options) {
    const { json, names } = optionsWire(options);
    const handle = out();
    const err = out();
    withOptionNames(names, () => check(N.hl_engine_new(json, handle, err), err));
    this.#ptr = handle[0];
    this.#onError = options.onCallbackError;
    finalizer.register(this, this.#ptr, this);
  }

  #handle() {
    if (this.#ptr === null) throw new HooklineError(Status.HL_ERR_CLOSED, 'the engine is closed');
    return this.#ptr;
  }

  #cancel(runId) {
    if (this.#ptr === null) return; // close() cancels everything itself
    const err = out();
    N.hl_engine_cancel(this.#ptr, runId, err);
    takeString(err[0]); // HL_ERR_NOT_FOUND: the run already finished
  }

  /**
   * Run `event` with `input`. Resolves with the outcome; rejects with a
   * HooklineError, or an AbortError when `options.signal` aborts (the run's
   * processes are killed). When no hook matches (hl_engine_try_run_inline
   * answers in place, without blocking) the promise resolves without a
   * thread hand-off; otherwise the hooks run on hookline's threads
   * (hl_engine_run_async) and the JS thread stays free meanwhile.
   */
  run(event, input, options = {}) {
    let ev;
    try {
      ev = eventNumber(event);
    } catch (e) {
      return Promise.reject(e); // a bad event rejects, like every other bad argument
    }
    return this.#runAsync(
      EVENT_NAMES[ev] || `hl_event(${ev})`,
      input,
      options,
      (ptr, json, id, runId, err) => N.hl_engine_run_async(ptr, ev, json, DONE, id, runId, err),
      (ptr, json) => tryRunInline(ptr, ev, json),
    );
  }

  /**
   * Fire an event by its config key (hl_engine_run_named_async): known
   * events (`'PreToolUse'`, …) keep their rules; any other key (`'PostCompact'`,
   * `'Setup'`, events Claude Code adds later) runs that key's hooks with
   * observer rules. The matcher is tested against `input.matcherValue`.
   */
  runNamed(name, input, options = {}) {
    const eventName = String(name);
    return this.#runAsync(eventName, input, options, (ptr, json, id, runId, err) =>
      N.hl_engine_run_named_async(ptr, eventName, json, DONE, id, runId, err),
    );
  }

  /** `runNamed` on the calling thread (hl_engine_run_named). */
  runNamedSync(name, input) {
    const json = inputJson(input, this.#traceContext);
    const ptr = this.#handle();
    return this.#blockingRun((outcome, err) => N.hl_engine_run_named(ptr, String(name), json, outcome, err));
  }

  /**
   * A blocking run on this thread through `call(outcomeSlot, errSlot)`
   * (hl_engine_run or hl_engine_run_named); callback hooks may start other
   * runs meanwhile (they get slots of their own).
   */
  #blockingRun(call) {
    return withSlots((s) => {
      this.#syncDepth++;
      let status;
      try {
        status = call(s.a, s.b);
      } finally {
        this.#syncDepth--;
      }
      const outcome = slotPointer(s.a);
      checkSlot(status, s.b);
      return outcomeFromText(takeString(outcome));
    });
  }

  /**
   * Start an asynchronous run with `start` and settle a Promise with its
   * outcome. `inline` (optional) answers a run that no hook matches in
   * place, or returns null; named runs have none and always start.
   */
  #runAsync(label, input, options, start, inline = null) {
    let promise = null;
    promise = new Promise((resolve, reject) => {
      const ptr = this.#handle();
      const signal = options && options.signal;
      if (signal && signal.aborted) throw abortError(signal);
      const json = inputJson(input, this.#traceContext);
      const answered = inline === null ? null : inline(ptr, json);
      if (answered !== null) {
        resolve(answered);
        return;
      }
      let onAbort = null;
      const entry = {
        settle: (status, outcome, errmsg) => {
          this.#inflight.delete(id);
          if (onAbort) signal.removeEventListener('abort', onAbort);
          // hookline decides who won an abort racing with completion
          // (hl_engine_cancel is linearizable): CANCELLED means the abort
          // won; a run that had already finished keeps its real result.
          if (status === Status.HL_ERR_CANCELLED && signal && signal.aborted) reject(abortError(signal));
          else if (status === Status.HL_ERR_CANCELLED && this.#ptr === null) {
            // close() interrupted the run. Nobody may be awaiting it (a
            // fire-and-forget run): our own close must not turn into an
            // unhandled rejection that ends the process. Whoever awaits it
            // still sees the rejection.
            promise.catch(ignore);
            reject(new HooklineError(Status.HL_ERR_CLOSED, `${label} run interrupted: engine closed`));
          } else if (status !== Status.HL_OK) reject(new HooklineError(status, errmsg));
          else {
            try {
              resolve(outcomeFromText(outcome));
            } catch (e) {
              reject(e);
            }
          }
        },
      };
      const id = addRun(entry);
      const runId = withSlots((slots) => {
        let status;
        try {
          status = start(ptr, json, id, slots.a, slots.b);
        } catch (e) {
          removeRun(id);
          throw e;
        }
        if (status !== Status.HL_OK) removeRun(id); // `done` is never called for a refused run
        checkSlot(status, slots.b);
        return slots.a.readBigUInt64LE(0);
      });
      this.#inflight.add(id);
      if (signal) {
        onAbort = () => this.#cancel(runId);
        signal.addEventListener('abort', onAbort, { once: true });
      }
    });
    return promise;
  }

  /**
   * Run `event` on the calling thread (hl_engine_run): blocks the JS thread
   * until the hooks finish; callback hooks run on the JS thread.
   */
  runSync(event, input) {
    const ev = eventNumber(event);
    const json = inputJson(input, this.#traceContext);
    const ptr = this.#handle();
    return this.#blockingRun((outcome, err) => N.hl_engine_run(ptr, ev, json, outcome, err));
  }

  sessionStart(input = {}, options) { return this.run(HookEvent.SessionStart, input, options); }
  sessionEnd(input, options) { return this.run(HookEvent.SessionEnd, input, options); }
  subagentStart(input, options) { return this.run(HookEvent.SubagentStart, input, options); }
  subagentStop(input, options) { return this.run(HookEvent.SubagentStop, input, options); }
  userPromptSubmit(input, options) { return this.run(HookEvent.UserPromptSubmit, input, options); }
  preToolUse(input, options) { return this.run(HookEvent.PreToolUse, input, options); }
  postToolUse(input, options) { return this.run(HookEvent.PostToolUse, input, options); }
  postToolUseFailure(input, options) { return this.run(HookEvent.PostToolUseFailure, input, options); }
  permissionRequest(input, options) { return this.run(HookEvent.PermissionRequest, input, options); }
  preCompact(input, options) { return this.run(HookEvent.PreCompact, input, options); }
  stop(input, options) { return this.run(HookEvent.Stop, input, options); }
  notification(input, options) { return this.run(HookEvent.Notification, input, options); }

  sessionStartSync(input = {}) { return this.runSync(HookEvent.SessionStart, input); }
  sessionEndSync(input) { return this.runSync(HookEvent.SessionEnd, input); }
  subagentStartSync(input) { return this.runSync(HookEvent.SubagentStart, input); }
  subagentStopSync(input) { return this.runSync(HookEvent.SubagentStop, input); }
  userPromptSubmitSync(input) { return this.runSync(HookEvent.UserPromptSubmit, input); }
  preToolUseSync(input) { return this.runSync(HookEvent.PreToolUse, input); }
  postToolUseSync(input) { return this.runSync(HookEvent.PostToolUse, input); }
  postToolUseFailureSync(input) { return this.runSync(HookEvent.PostToolUseFailure, input); }
  permissionRequestSync(input) { return this.runSync(HookEvent.PermissionRequest, input); }
  preCompactSync(input) { return this.runSync(HookEvent.PreCompact, input); }
  stopSync(input) { return this.runSync(HookEvent.Stop, input); }
  notificationSync(input) { return this.runSync(HookEvent.Notification, input); }

  /**
   * Add an in-process hook for `event`, run after the configured commands.
   * `fn(payload)` receives the payload a command would read on stdin and
   * returns what a command would print (a JSON object), `allow()`,
   * `deny(message)` (= exit 2 with the message on stderr), `true` (allow) or
   * nothing. A thrown exception is exit code 1.
   */
  addCallbackHook(event, matcher, name, fn) {
    const ev = eventNumber(event);
    if (typeof fn !== 'function') throw new TypeError('fn must be a function');
    const ptr = this.#handle();
    const id = addHandler({ fn, kind: 'hook', name: String(name), onError: this.#onError });
    const err = out();
    let status;
    try {
      status = N.hl_engine_add_callback_hook(ptr, ev, nameArg(matcher), nameArg(name), CALLBACK, id, FREE, err);
    } catch (e) {
      dropHandler(id);
      throw e;
    }
    if (status !== Status.HL_OK) dropHandler(id); // a failed registration does not call free_user_data
    check(status, err);
    return this;
  }

  /**
   * Set the handler that answers prompt and agent hooks (null removes it:
   * such hooks then fail with `failure: "no_handler"`, fail open). `fn(req,
   * {signal})` receives `{type, event, prompt, model, timeout_ms, input}`
   * and returns (or resolves to) `{ ok, reason, impossible? }`; `signal`
   * aborts at the hook's timeout. A throw or a rejection is a handler
   * failure. Use the async run methods with an async handler.
   */
  setModelHandler(fn) {
    this.#setHandler('prompt', fn, encodeModelReply);
    this.#setHandler('agent', fn, encodeModelReply);
    return this;
  }

  /**
   * Set the handler that answers mcp_tool hooks (null removes it). `fn(req,
   * {signal})` receives `{type, event, server, tool, input, timeout_ms}`
   * and returns (or resolves to) the tool's text, or `{ text, isError }`.
   */
  setMcpHandler(fn) {
    this.#setHandler('mcp_tool', fn, encodeMcpReply);
    return this;
  }

  #setHandler(type, fn, encode) {
    if (fn !== null && fn !== undefined && typeof fn !== 'function') throw new TypeError('handler must be a function or null');
    const ptr = this.#handle();
    const err = out();
    if (!fn) {
      check(N.hl_engine_set_handler(ptr, type, null, null, null, err), err);
      return;
    }
    const id = addHandler({ fn, encode, kind: 'handler', name: type, onError: this.#onError });
    let status;
    try {
      status = N.hl_engine_set_handler(ptr, type, HANDLER, id, FREE, err);
    } catch (e) {
      dropHandler(id);
      throw e;
    }
    if (status !== Status.HL_OK) dropHandler(id);
    check(status, err);
  }

  /**
   * Send the spans of this engine's runs to `fn(span)`: one span per run
   * that runs a hook (`level` "run") and one per hook (`level` "hook",
   * `parentSpanId` the run's `spanId`), after each ends (docs/c-api.md
   * §12). `fn` runs on the JS thread, called from hookline's delivery
   * thread (which waits for it), so keep it short; an exception in it drops
   * the span. `null` removes the handler. Runs already started keep the
   * handler they started with. With a handler set, close the engine with
   * close(), not closeSync(). See also setTraceContext and `hookline/otel`.
   */
  setTraceHandler(fn) {
    const ptr = this.#handle();
    const err = out();
    if (fn === null || fn === undefined) {
      check(N.hl_engine_set_trace_handler(ptr, null, null, null, err), err);
      return this;
    }
    if (typeof fn !== 'function') throw new TypeError('fn must be a function or null');
    const id = addHandler({ fn, kind: 'trace', name: 'trace handler', onError: this.#onError });
    let status;
    try {
      status = N.hl_engine_set_trace_handler(ptr, TRACE, id, FREE, err);
    } catch (e) {
      dropHandler(id);
      throw e;
    }
    if (status !== Status.HL_OK) dropHandler(id); // a failed registration does not call free
    check(status, err);
    this.#traced = true;
    return this;
  }

  /**
   * Make every run join the trace `fn()` returns at the time of the call:
   * `{traceparent, tracestate}` (W3C values) put into the run's input,
   * unless the input has a `traceparent` of its own or `fn` returns
   * nothing. `hookline/otel` installs one that reads the active
   * OpenTelemetry context. `null` removes it.
   */
  setTraceContext(fn) {
    if (fn !== null && fn !== undefined && typeof fn !== 'function') {
      throw new TypeError('fn must be a function or null');
    }
    this.#traceContext = fn || null;
    return this;
  }

  /** The SHA-256 hex digest of the configured command set (the approval gate, docs/protocol.md). */
  digest() {
    const hex = out();
    const err = out();
    check(N.hl_engine_command_digest(this.#handle(), hex, err), err);
    return takeString(hex[0]);
  }

  /** The digested commands: `[{event, matcher, command, timeoutSeconds}]`. */
  previews() {
    const json = out();
    const err = out();
    check(N.hl_engine_command_previews(this.#handle(), json, err), err);
    return JSON.parse(takeString(json[0])).map(camelKeys);
  }

  /**
   * The entries of the hooks configuration that were skipped the way the agent skips them
   * (hl_engine_config_warnings): a malformed entry or an unknown handler type in a Claude Code
   * settings file does not reject the file; every other hook loads. `[{path, message}]`.
   */
  configWarnings() {
    const json = out();
    const err = out();
    check(N.hl_engine_config_warnings(this.#handle(), json, err), err);
    return JSON.parse(takeString(json[0]));
  }

  /** Approve the current command set; `persist` records it in the trust store. */
  approve({ persist = false } = {}) {
    const err = out();
    check(N.hl_engine_approve_workspace_hooks(this.#handle(), !!persist, err), err);
  }

  /** True when the engine is gated and its commands are not approved. */
  get needsApproval() {
    return this.#ptr === null ? false : N.hl_engine_workspace_hooks_need_approval(this.#ptr);
  }

  /** True when the engine was created with `workspaceGated: true`. */
  get workspaceGated() {
    return this.#ptr === null ? false : N.hl_engine_workspace_gated(this.#ptr);
  }

  /** Swap the configuration (full options, as for the constructor). A failure changes nothing. */
  reload(options) {
    const { json, names } = optionsWire(options);
    const err = out();
    withOptionNames(names, () => check(N.hl_engine_reload(this.#handle(), json, err), err));
    if (typeof options.onCallbackError === 'function') this.#onError = options.onCallbackError;
  }

  /** Set (or clear, with null) the transcript path given to hooks. */
  setTranscriptPath(path) {
    const err = out();
    check(N.hl_engine_set_transcript_path(this.#handle(), nameArg(path), err), err);
  }

  /** The current transcript path, or null. */
  get transcriptPath() {
    const p = out();
    const err = out();
    check(N.hl_engine_transcript_path(this.#handle(), p, err), err);
    return takeString(p[0]);
  }

  /** Whether close() was called. */
  get closed() {
    return this.#ptr === null;
  }

  /**
   * Free the engine: pending runs are cancelled (they reject with a
   * HooklineError HL_ERR_CLOSED, "<Event> run interrupted: engine closed";
   * such a rejection is never reported as unhandled) and the promise
   * resolves once every one has settled.
   * The wait happens off the JS thread. Idempotent.
   */
  close() {
    if (this.#closing) return this.#closing;
    const ptr = this.#ptr;
    this.#closing = new Promise((resolve, reject) => {
      if (ptr === null) return resolve();
      this.#ptr = null;
      finalizer.unregister(this);
      N.hl_engine_free.async(ptr, (err) => {
        if (err) reject(err);
        else resolve();
      });
    });
    return this.#closing;
  }

  /**
   * Free the engine on the JS thread. Only for engines without runs in
   * flight (an async run's completion needs the JS thread; a sync run may
   * still call its callback hooks) and without a trace handler (spans are
   * delivered on the JS thread before the free returns): throws otherwise.
   */
  closeSync() {
    if (this.#ptr === null) return;
    if (this.#inflight.size > 0 || this.#syncDepth > 0) {
      throw new HooklineError(Status.HL_ERR_CLOSED, 'runs are in flight: use close()');
    }
    if (this.#traced) {
      // hl_engine_free waits for spans to be delivered, and delivering one
      // needs this thread.
      throw new HooklineError(Status.HL_ERR_CLOSED, 'a trace handler was set: use close()');
    }
    const ptr = this.#ptr;
    this.#ptr = null;
    this.#closing = Promise.resolve();
    finalizer.unregister(this);
    N.hl_engine_free(ptr);
  }
}

if (typeof Symbol.asyncDispose === 'symbol') {
  Engine.prototype[Symbol.asyncDispose] = function asyncDispose() {
    return this.close();
  };
}

module.exports = { Engine, HookEvent, eventNumber, outcomeFromWire };
