'use strict';
// hookline for Node.js: the C ABI of libhookline through koffi.
// See README.md; the C API is documented in docs/c-api.md, the hooks protocol in docs/protocol.md.

const { N, LIBRARY_PATH } = require('./lib/native');
const { Status, HooklineError, AbortError } = require('./lib/errors');
const { Reply, allow, deny, replyJson } = require('./lib/callbacks');
const { Registry, HookPoint } = require('./lib/registry');
const { Engine, HookEvent } = require('./lib/engine');

/** The library version, e.g. "0.1.0". */
function version() {
  return N.hl_version();
}

/** The constant name of an `hl_status`, e.g. "HL_ERR_INVALID_JSON"; null if unknown. */
function statusName(status) {
  return N.hl_status_name(status);
}

/** The wire label of an `hl_hook_point` number, e.g. "pre_turn"; null if unknown. */
function pointName(point) {
  return N.hl_point_name(point);
}

/** The name of an `hl_event` number, e.g. "PreToolUse"; null if unknown. */
function eventName(event) {
  return N.hl_event_name(event);
}

module.exports = {
  Engine,
  Registry,
  HookEvent,
  HookPoint,
  Status,
  HooklineError,
  AbortError,
  Reply,
  allow,
  deny,
  replyJson,
  version,
  statusName,
  pointName,
  eventName,
  libraryPath: LIBRARY_PATH,
};
module.exports.default = module.exports;
