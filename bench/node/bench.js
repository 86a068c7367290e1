'use strict';
// The Node driver of hookline's benchmarks (scenario 4 of BENCHMARKS.md): the
// same command hook run by child_process.spawn (how Node agents run hooks
// today) and by hookline through the Node binding, interleaved in rounds.
//
//   node bench/node/bench.js <payload-file> [n]
//
// Prints one JSON line per measurement, like bench/c/hlbench.c.

const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const hookline = require('../../bindings/node');

const HOOK_CMD = `cat >/dev/null; echo '{"hookSpecificOutput":{"permissionDecision":"allow"}}'`;

function emit(name, samples) {
  const s = samples.slice().sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const n = s.length;
  const r99 = Math.max(1, Math.ceil((n * 99) / 100));
  const sum = s.reduce((a, b) => a + b, 0n);
  console.log(JSON.stringify({
    name, unit: 'ns', n, median: Number(s[n >> 1]), p99: Number(s[r99 - 1]), min: Number(s[0]),
    mean: Number(sum / BigInt(n)),
  }));
}

/** The inherited environment plus the variables hookline gives a hook. */
function hookEnv(workspace) {
  const env = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!/^(HOOKLINE_|VT_|CLAUDE_)/.test(k)) env[k] = v;
  }
  for (const k of ['HOOKLINE_PROJECT_DIR', 'VT_PROJECT_DIR', 'CLAUDE_PROJECT_DIR']) env[k] = workspace;
  for (const k of ['HOOKLINE_SESSION_ID', 'VT_SESSION_ID', 'CLAUDE_SESSION_ID']) env[k] = 'bench-session';
  env.HOOKLINE_HOOK_EVENT = 'PreToolUse';
  env.VT_HOOK_EVENT = 'PreToolUse';
  return env;
}

/** Run the hook the way a Node agent does: spawn, write the payload, collect output, await close. */
function nodeSpawn(workspace, env, payload) {
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', HOOK_CMD], { cwd: workspace, env, stdio: ['pipe', 'pipe', 'pipe'] });
    const out = [];
    const err = [];
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => err.push(d));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`hook exited ${code}: ${Buffer.concat(err)}`));
      else resolve(Buffer.concat(out).toString());
    });
    child.stdin.on('error', () => {}); // a hook that closes stdin early
    child.stdin.end(payload);
  });
}

async function main() {
  const payload = fs.readFileSync(process.argv[2]);
  const n = Number(process.argv[3] || 500);
  const workspace = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hlbench-node')));
  const env = hookEnv(workspace);
  const engine = new hookline.Engine({
    workspace,
    sessionId: 'bench-session',
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: HOOK_CMD }] }] },
  });
  const input = { toolName: 'Bash', toolInput: { command: 'git status --porcelain' }, toolCallId: 'call-1' };
  const runAsync = async () => {
    const o = await engine.preToolUse(input);
    if (o.decision !== 'allow') throw new Error(`decision ${o.decision}`);
  };
  const runSync = () => {
    const o = engine.preToolUseSync(input);
    if (o.decision !== 'allow') throw new Error(`decision ${o.decision}`);
  };
  if (!(await nodeSpawn(workspace, env, payload)).includes('permissionDecision')) throw new Error('unexpected hook output');
  for (let i = 0; i < 20; i++) {
    await nodeSpawn(workspace, env, payload);
    await runAsync();
    runSync();
  }
  const rounds = 10;
  const per = Math.max(1, Math.floor(n / rounds));
  const native = [];
  const hlAsync = [];
  const hlSync = [];
  const now = process.hrtime.bigint;
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < per; i++) {
      const t0 = now();
      await nodeSpawn(workspace, env, payload);
      native.push(now() - t0);
    }
    for (let i = 0; i < per; i++) {
      const t0 = now();
      await runAsync();
      hlAsync.push(now() - t0);
    }
    for (let i = 0; i < per; i++) {
      const t0 = now();
      runSync();
      hlSync.push(now() - t0);
    }
  }
  emit('spawn_childprocess_node', native);
  emit('spawn_hookline_node', hlAsync);
  emit('spawn_hookline_sync_node', hlSync);

  // The binding's fixed cost per run: an engine whose only hook is an in-process
  // JS callback that allows (no process is spawned).
  const cbEngine = new hookline.Engine({ workspace, sessionId: 'bench-session' });
  cbEngine.addCallbackHook('PreToolUse', 'Bash', 'allow-all', () => hookline.allow());
  const cbAsync = [];
  const cbSync = [];
  for (let i = 0; i < n * 10; i++) {
    const t0 = now();
    const o = await cbEngine.preToolUse(input);
    const t1 = now();
    const o2 = cbEngine.preToolUseSync(input);
    const t2 = now();
    if (o.decision !== 'allow' || o2.decision !== 'allow') throw new Error('callback hook did not allow');
    if (i >= n) { // the first n are warm-up
      cbAsync.push(t1 - t0);
      cbSync.push(t2 - t1);
    }
  }
  emit('callback_hook_node', cbAsync);
  emit('callback_hook_sync_node', cbSync);
  await cbEngine.close();

  // The fixed cost of one run on an engine without hooks: the Promise and
  // the sync API, alternating.
  const empty = new hookline.Engine({ workspace, sessionId: 'bench-session' });
  const noAsync = [];
  const noSync = [];
  for (let i = 0; i < n * 10; i++) {
    const t0 = now();
    const o = await empty.preToolUse(input);
    const t1 = now();
    const o2 = empty.preToolUseSync(input);
    const t2 = now();
    if (o.hooks.length !== 0 || o2.hooks.length !== 0) throw new Error('an engine without hooks ran hooks');
    if (i >= n) {
      noAsync.push(t1 - t0);
      noSync.push(t2 - t1);
    }
  }
  emit('nohooks_node', noAsync);
  emit('nohooks_sync_node', noSync);
  await empty.close();
  await engine.close();
  fs.rmSync(workspace, { recursive: true, force: true });
}

main().catch((e) => {
  console.error(`hlbench-node: ${e && e.stack ? e.stack : e}`);
  process.exit(1);
});
