// ESM entry point: the same objects as the CommonJS entry (one native state per process).
import hookline from './index.js';

export const {
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
  libraryPath,
} = hookline;

export default hookline;
