'use strict';
// Shared helpers for the tests (this file defines no tests).

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

/** The package root (what `require('hookline')` resolves to). */
const PACKAGE_DIR = path.resolve(__dirname, '..');

/** A fresh temp directory, removed when the test ends. */
function tempDir(t, prefix = 'hookline-node-') {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Claude Code settings with one PreToolUse group per command string. */
function claudePreToolUse(commands, { matcher = 'Bash', timeout } = {}) {
  return {
    PreToolUse: [
      {
        matcher,
        hooks: commands.map((command) => (timeout ? { type: 'command', command, timeout } : { type: 'command', command })),
      },
    ],
  };
}

/**
 * The same in the VT Code dialect (`lifecycle`, `timeout_seconds`): the VT Code
 * profile's rules (sequential PreToolUse, updatedInput chaining, timeout denies)
 * are tested in this dialect.
 */
function vtPreToolUse(commands, { matcher = 'Bash', timeout } = {}) {
  return {
    lifecycle: {
      pre_tool_use: [
        {
          matcher,
          hooks: commands.map((command) =>
            timeout ? { type: 'command', command, timeout_seconds: timeout } : { type: 'command', command },
          ),
        },
      ],
    },
  };
}

/** Engine options for a temp workspace with its own trust store (never the user's). */
function engineOptions(t, extra = {}) {
  const workspace = tempDir(t);
  const trustDir = tempDir(t, 'hookline-trust-');
  return { workspace, sessionId: 'node-test', trustStore: path.join(trustDir, 'trust.json'), ...extra };
}

/** Resolves after `ms` milliseconds. */
function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Whether a process exists (signal 0). */
function processAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

/** Poll `pred` until true or `ms` elapse; returns its last value. */
async function waitFor(pred, ms, step = 20) {
  const end = Date.now() + ms;
  for (;;) {
    if (pred()) return true;
    if (Date.now() > end) return false;
    await sleep(step);
  }
}

module.exports = { PACKAGE_DIR, tempDir, claudePreToolUse, vtPreToolUse, engineOptions, sleep, processAlive, waitFor };
