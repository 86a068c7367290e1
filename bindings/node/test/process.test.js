'use strict';
// Whole-process behaviour, in child `node` processes: the event loop is kept
// alive exactly while runs are pending, nothing dangles afterwards, and both
// entry points (CommonJS, ESM) load.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { pathToFileURL } = require('node:url');
const { PACKAGE_DIR, tempDir } = require('./helpers');

const CHILD_TIMEOUT_MS = 20_000;

/** Run `source` as a child script; returns {status, signal, stdout, stderr, ms}. */
function runChild(t, fileName, source) {
  const dir = tempDir(t);
  const file = path.join(dir, fileName);
  fs.writeFileSync(file, source);
  const started = Date.now();
  const r = spawnSync(process.execPath, [file], { cwd: dir, encoding: 'utf8', timeout: CHILD_TIMEOUT_MS });
  return { status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr, ms: Date.now() - started };
}

const CJS = JSON.stringify(path.join(PACKAGE_DIR, 'index.js'));
const ESM = JSON.stringify(pathToFileURL(path.join(PACKAGE_DIR, 'index.mjs')).href);

function assertCleanExit(r, expectedStdout) {
  assert.equal(r.signal, null, `child killed by ${r.signal} (stderr: ${r.stderr})`);
  assert.equal(r.status, 0, `child exit status ${r.status} (stderr: ${r.stderr})`);
  assert.equal(r.stdout.trim(), expectedStdout);
}

test('process_exits_by_itself_after_async_and_sync_runs_without_close', (t) => {
  const r = runChild(
    t,
    'child.cjs',
    `
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { Engine, Registry, deny } = require(${CJS});
const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'hookline-child-'));
const engine = new Engine({
  workspace,
  sessionId: 'child',
  hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ command: 'cat > /dev/null; exit 0' }] }] },
});
engine.addCallbackHook('PreToolUse', null, 'js', (p) => (p.tool_input.bad ? deny('bad') : undefined));
const registry = new Registry().onPreToolCallDecide('r', () => ({ allow: false, message: 'r' }));
(async () => {
  const a = await engine.preToolUse({ toolName: 'Bash', toolInput: { bad: true } });
  const b = engine.preToolUseSync({ toolName: 'Bash', toolInput: {} });
  const c = registry.run('pre_tool_call_decide', { tool_name: 'Bash' });
  console.log([a.decision, b.decision, c.message].join(' '));
  fs.rmSync(workspace, { recursive: true, force: true });
})();
`,
  );
  assertCleanExit(r, 'deny continue r');
});

test('a_pending_run_keeps_the_process_alive_until_it_settles', (t) => {
  const r = runChild(
    t,
    'child.cjs',
    `
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { Engine } = require(${CJS});
const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'hookline-child-'));
const engine = new Engine({
  workspace,
  sessionId: 'child',
  hooks: { Stop: [{ hooks: [{ command: 'sleep 1; echo \\'{"decision":"block","reason":"keep going"}\\'' }] }] },
});
engine.addCallbackHook('Stop', null, 'late', () => undefined);
// Nothing but the pending run keeps this process alive.
engine.stop({ lastAssistantMessage: 'done', stopHookActive: false }).then((o) => {
  console.log(o.blockReason);
  fs.rmSync(workspace, { recursive: true, force: true });
});
`,
  );
  assertCleanExit(r, 'keep going');
});

test('esm_entry_point_exports_the_same_api', (t) => {
  const r = runChild(
    t,
    'child.mjs',
    `
import hookline, { Engine, Registry, HookEvent, HookPoint, Status, HooklineError, AbortError, allow, deny, replyJson, version } from ${ESM};
import { createRequire } from 'node:module';
const cjs = createRequire(import.meta.url)(${CJS});
const same = hookline === cjs && Engine === cjs.Engine && Registry === cjs.Registry && cjs.default === cjs;
const names = [HookEvent.PreToolUse, HookPoint.transform_tool_input, Status.HL_ERR_FORKED].join(',');
const ok = typeof allow === 'function' && typeof deny === 'function' && typeof replyJson === 'function' &&
  typeof HooklineError === 'function' && typeof AbortError === 'function';
const r = new Registry();
r.onTransformToolInput('t', (c) => ({ ...c.tool_args, esm: true }));
const out = r.run('transform_tool_input', { tool_name: 'X', tool_args: {} });
r.close();
console.log(same, names, ok, /^\\d+\\.\\d+\\.\\d+/.test(version()), JSON.stringify(out.tool_args));
`,
  );
  assertCleanExit(r, 'true 5,9,12 true true {"esm":true}');
});

test('abandoned_engines_and_registries_do_not_hold_the_process', (t) => {
  const r = runChild(
    t,
    'child.cjs',
    `
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { Engine, Registry } = require(${CJS});
const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'hookline-child-'));
for (let i = 0; i < 20; i++) {
  const e = new Engine({ workspace, sessionId: 's' + i });
  e.addCallbackHook('Notification', null, 'n', () => undefined);
  new Registry().onPostTurn('p', () => {});
}
if (global.gc) global.gc();
fs.rmSync(workspace, { recursive: true, force: true });
console.log('bye');
`,
  );
  assertCleanExit(r, 'bye');
});

test('close_then_exit_with_many_callback_runs_exits_cleanly', (t) => {
  const r = runChild(
    t,
    'child.cjs',
    `
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { Engine, deny } = require(${CJS});
const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'hookline-child-'));
const engine = new Engine({ workspace, sessionId: 's' });
engine.addCallbackHook('PreToolUse', null, 'cb', () => deny('x'));
const runs = [];
for (let i = 0; i < 1000; i++) runs.push(engine.preToolUse({ toolName: 'Bash' }));
Promise.all(runs).then(async (o) => {
  await engine.close();
  fs.rmSync(workspace, { recursive: true, force: true });
  console.log(o.filter((x) => x.decision === 'deny').length);
});
`,
  );
  assertCleanExit(r, '1000');
});

test('a_run_nobody_awaits_does_not_crash_the_process_when_close_interrupts_it', (t) => {
  const r = runChild(
    t,
    'child.cjs',
    `
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { Engine } = require(${CJS});
const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'hookline-child-'));
const engine = new Engine({ workspace, sessionId: 's',
  hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'sleep 30' }] }] } });
engine.preToolUse({ toolName: 'Bash' }); // fire and forget: nobody awaits or catches it
const awaited = engine.preToolUse({ toolName: 'Bash' }).catch((e) => e.code + ': ' + e.message);
engine.close().then(async () => {
  const seen = await awaited;
  // Both runs settled before close() resolved; one more turn of the event
  // loop lets Node report an unhandled rejection (and exit 1) if there is one.
  await new Promise((resolve) => setImmediate(resolve));
  fs.rmSync(workspace, { recursive: true, force: true });
  console.log(seen);
});
`,
  );
  assertCleanExit(r, 'HL_ERR_CLOSED: PreToolUse run interrupted: engine closed');
});

test('example_agent_runs_to_completion', (t) => {
  const example = path.join(PACKAGE_DIR, 'examples', 'agent.mjs');
  const started = Date.now();
  const r = spawnSync(process.execPath, [example], { encoding: 'utf8', timeout: CHILD_TIMEOUT_MS });
  assert.equal(r.signal, null, r.stderr);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /PreToolUse Bash \{"command":"rm -rf \/"\} → deny \(destructive command blocked\)/);
  assert.match(r.stdout, /runs \{"command":"pnpm install"\}/);
  assert.match(r.stdout, /Slow hook: AbortError/);
  assert.ok(Date.now() - started < CHILD_TIMEOUT_MS);
});
