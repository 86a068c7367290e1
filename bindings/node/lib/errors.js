'use strict';
// Error types and the hl_status numbers (docs/c-api.md).

/** The `hl_status` values, by constant name. */
const Status = Object.freeze({
  HL_OK: 0,
  HL_ERR_NULL_ARGUMENT: 1,
  HL_ERR_INVALID_UTF8: 2,
  HL_ERR_INVALID_JSON: 3,
  HL_ERR_INVALID_ARGUMENT: 4,
  HL_ERR_INVALID_CONFIG: 5,
  HL_ERR_NOT_FOUND: 6,
  HL_ERR_CANCELLED: 7,
  HL_ERR_WRONG_THREAD: 8,
  HL_ERR_CLOSED: 9,
  HL_ERR_IO: 10,
  HL_ERR_PANIC: 11,
  HL_ERR_FORKED: 12,
});

const STATUS_NAMES = Object.freeze(
  Object.fromEntries(Object.entries(Status).map(([name, value]) => [value, name])),
);

/**
 * An error reported by libhookline: `status` is the `hl_status` number,
 * `code` its constant name (e.g. `"HL_ERR_INVALID_CONFIG"`), `message` the
 * library's human-readable message.
 */
class HooklineError extends Error {
  constructor(status, message) {
    const code = STATUS_NAMES[status] || `HL_STATUS_${status}`;
    super(message || code);
    this.name = 'HooklineError';
    this.status = status;
    this.code = code;
  }
}

/**
 * The rejection of a run cancelled through its `AbortSignal` (same shape as
 * Node's own AbortError: `name` "AbortError", `code` "ABORT_ERR"; `cause`
 * is the signal's reason).
 */
class AbortError extends Error {
  constructor(message = 'The operation was aborted', options = undefined) {
    super(message, options);
    this.name = 'AbortError';
    this.code = 'ABORT_ERR';
  }
}

module.exports = { Status, STATUS_NAMES, HooklineError, AbortError };
