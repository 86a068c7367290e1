'use strict';
// hl_registry: named in-process callbacks per hook point (docs/c-api.md).

const { N, check, out, takeString, withSlots, slotPointer, checkSlot } = require('./native');
const { HooklineError, Status } = require('./errors');
const { CALLBACK, FREE, addHandler, dropHandler } = require('./callbacks');

/** Hook point labels → `hl_hook_point` numbers. */
const HookPoint = Object.freeze({
  pre_turn: 0,
  post_turn: 1,
  pre_tool_call_decide: 2,
  post_tool_call: 3,
  on_compaction: 4,
  on_session_start: 5,
  on_session_end: 6,
  on_tool_error: 7,
  on_interaction: 8,
  transform_tool_input: 9,
  stop: 10,
});

/** Registry contracts → `hl_registry_contract` numbers. */
const Contract = Object.freeze({
  agy_bridge: 0,
  antigravity_sdk: 1,
});

const POINT_KIND = ['decide', 'observer', 'decide', 'observer', 'observer', 'observer', 'observer', 'observer', 'decide', 'transform', 'decide'];
// Under the Antigravity SDK's contract on_tool_error and on_interaction answer with any JSON value.
const SDK_POINT_KIND = POINT_KIND.map((k, i) => (i === 7 || i === 8 ? 'transform' : k));

function pointNumber(point) {
  if (typeof point === 'number') return point; // out-of-range values are the library's to reject
  if (typeof point === 'string' && Object.prototype.hasOwnProperty.call(HookPoint, point)) return HookPoint[point];
  throw new HooklineError(Status.HL_ERR_INVALID_ARGUMENT, `unknown hook point ${JSON.stringify(point)}`);
}

/** Names go to C as strings; null/undefined become NULL (rejected by the library). */
function nameArg(name) {
  return name === null || name === undefined ? null : String(name);
}

const finalizer = new FinalizationRegistry((ptr) => N.hl_registry_free(ptr));

/**
 * A registry of named callbacks per hook point.
 *
 * Callbacks are synchronous functions `(context) => result` receiving the
 * point's context object (wire JSON, snake_case). Their result:
 * - decide points (`pre_tool_call_decide`, `pre_turn`, `on_interaction`):
 *   `{allow, message?, modified_args?}`, `true`/`false`, `allow()`/`deny(msg)`,
 *   or nothing (no opinion);
 * - `transform_tool_input`: the new `tool_args` (any JSON, `null` too), or
 *   `undefined` for no opinion;
 * - observers: ignored.
 * A thrown exception (or a returned Promise) is a callback failure.
 */
class Registry {
  #ptr;
  #onError;
  #kinds;

  /**
   * @param {{onCallbackError?: (error: unknown, info: {name: string, kind: string}) => void, contract?: "agy_bridge" | "antigravity_sdk"}} [options]
   */
  constructor(options = {}) {
    const contract = options.contract === undefined ? 'agy_bridge' : options.contract;
    if (!Object.prototype.hasOwnProperty.call(Contract, contract)) {
      throw new HooklineError(Status.HL_ERR_INVALID_ARGUMENT, `unknown registry contract ${JSON.stringify(contract)}`);
    }
    const slot = out();
    const err = out();
    check(N.hl_registry_new_with_contract(Contract[contract], slot, err), err);
    const ptr = slot[0];
    this.#ptr = ptr;
    this.#kinds = contract === 'antigravity_sdk' ? SDK_POINT_KIND : POINT_KIND;
    this.#onError = options.onCallbackError;
    finalizer.register(this, ptr, this);
  }

  #handle() {
    if (this.#ptr === null) throw new HooklineError(Status.HL_ERR_CLOSED, 'the registry is closed');
    return this.#ptr;
  }

  /** Register `fn` as `name` at `point` (a label or number); replaces an existing (point, name) in place. */
  on(point, name, fn) {
    const p = pointNumber(point);
    if (typeof fn !== 'function') throw new TypeError('fn must be a function');
    const ptr = this.#handle();
    const id = addHandler({ fn, kind: this.#kinds[p] || 'observer', name: String(name), onError: this.#onError });
    const err = out();
    let status;
    try {
      status = N.hl_registry_register(ptr, p, nameArg(name), CALLBACK, id, FREE, err);
    } catch (e) {
      dropHandler(id);
      throw e;
    }
    if (status !== 0) dropHandler(id); // a failed registration does not call free_user_data
    check(status, err);
    return this;
  }

  onPreTurn(name, fn) { return this.on('pre_turn', name, fn); }
  onPostTurn(name, fn) { return this.on('post_turn', name, fn); }
  onPreToolCallDecide(name, fn) { return this.on('pre_tool_call_decide', name, fn); }
  onPostToolCall(name, fn) { return this.on('post_tool_call', name, fn); }
  onCompaction(name, fn) { return this.on('on_compaction', name, fn); }
  onSessionStart(name, fn) { return this.on('on_session_start', name, fn); }
  onSessionEnd(name, fn) { return this.on('on_session_end', name, fn); }
  onToolError(name, fn) { return this.on('on_tool_error', name, fn); }
  onInteraction(name, fn) { return this.on('on_interaction', name, fn); }
  onTransformToolInput(name, fn) { return this.on('transform_tool_input', name, fn); }
  /** `stop`: return `{decision: 'continue', reason}` to keep the agent going, nothing to let it stop. */
  onStop(name, fn) { return this.on('stop', name, fn); }

  /** Remove the callback `name` at `point`; false when there was none. */
  unregister(point, name) {
    const p = pointNumber(point);
    const err = out();
    const status = N.hl_registry_unregister(this.#handle(), p, nameArg(name), err);
    if (status === Status.HL_ERR_NOT_FOUND) {
      takeString(err[0]);
      return false;
    }
    check(status, err);
    return true;
  }

  /**
   * Run the callbacks at `point` with `context`; returns
   * `{allow, message, tool_args, errors: [{name, message}]}`.
   */
  run(point, context) {
    const p = pointNumber(point);
    const json = JSON.stringify(context === undefined ? {} : context);
    const ptr = this.#handle();
    return withSlots((s) => {
      const status = N.hl_registry_run(ptr, p, json, s.a, s.b);
      const result = slotPointer(s.a);
      checkSlot(status, s.b);
      return JSON.parse(takeString(result));
    });
  }

  /** `[{name, point, callback_id}]` in registration order. */
  entries() {
    const result = out();
    const err = out();
    check(N.hl_registry_entries(this.#handle(), result, err), err);
    return JSON.parse(takeString(result[0]));
  }

  /** Whether close() was called. */
  get closed() {
    return this.#ptr === null;
  }

  /** Free the registry and release every callback. Idempotent. */
  close() {
    const ptr = this.#ptr;
    if (ptr === null) return;
    this.#ptr = null;
    finalizer.unregister(this);
    N.hl_registry_free(ptr);
  }
}

if (typeof Symbol.dispose === 'symbol') {
  Registry.prototype[Symbol.dispose] = function dispose() {
    this.close();
  };
}

module.exports = { Registry, HookPoint, Contract, pointNumber };
