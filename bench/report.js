'use strict';
// Turns the JSON lines printed by the bench drivers into BENCHMARKS.md's tables:
// medians, p99s, and the ratios (with their targets) that issue #7 tracks.
//
//   node bench/report.js <results.jsonl>
//
// A name measured several times (the registry rounds) is reported with the median of its
// medians and of its p99s. Exit status is 0 even when a target is missed (MISS is printed).

const fs = require('node:fs');

const file = process.argv[2];
if (!file) {
  console.error('usage: node bench/report.js <results.jsonl>');
  process.exit(2);
}
const lines = fs.readFileSync(file, 'utf8').split('\n').filter((l) => l.trim().startsWith('{'));
const meta = {};
const samples = new Map(); // name -> [{median,p99,n,min,mean}]
const values = new Map(); // name -> {value, unit}
for (const l of lines) {
  const r = JSON.parse(l);
  if (r.meta) Object.assign(meta, r.meta);
  else if ('median' in r) {
    if (!samples.has(r.name)) samples.set(r.name, []);
    samples.get(r.name).push(r);
  } else if ('value' in r) values.set(r.name, r);
}

const med = (xs) => {
  const s = xs.slice().sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
function stat(name) {
  const rs = samples.get(name);
  if (!rs) return null;
  return {
    median: med(rs.map((r) => r.median)),
    p99: med(rs.map((r) => r.p99)),
    n: rs.reduce((a, r) => a + r.n, 0),
    runs: rs.length,
  };
}
const val = (name) => (values.has(name) ? values.get(name).value : null);

function fmtNs(ns) {
  if (ns == null) return 'n/a';
  if (ns >= 1e6) return `${(ns / 1e6).toFixed(2)} ms`;
  if (ns >= 1e3) return `${(ns / 1e3).toFixed(2)} µs`;
  return `${Math.round(ns)} ns`;
}
const fmtRatio = (x) => (x == null || !isFinite(x) ? 'n/a' : x.toFixed(2));

const out = [];
const p = (s = '') => out.push(s);

// ------------------------------------------------------------------ latency table
const LATENCY = [
  ['clock_overhead', 'clock_gettime pair (measurement overhead)'],
  ['nomatch_c', '1. hl_engine_run(PreToolUse), configured hook does not match (C)'],
  ['nohooks_c', '1. hl_engine_run(PreToolUse), engine without hooks (C)'],
  ['nomatch_traced_c', '1. no hook matches, trace handler set (C)'],
  ['nomatch_1000_hooks_c', '1. same, engine with 1000 hooks (250 PreToolUse groups), none matching (C)'],
  ['callback_hook_sync_c', '1. hl_engine_run(PreToolUse), 1 in-process C callback hook that allows'],
  ['callback_hook_async_c', '1. same through hl_engine_run_async, caller waits for done (C)'],
  ['handoff_floor_c', '1. floor: job handed to an awake thread that works as long as the sync run, then a condition-variable wake-up back (C)'],
  ['callback_hook_go', '1. same from Go (Engine.PreToolUse; Go callback; async run)'],
  ['nohooks_go', '1. engine without hooks, from Go through the binding (Engine.PreToolUse)'],
  ['nohooks_cgo_sync_go', '1. engine without hooks, from Go by a direct cgo call of hl_engine_run (no binding)'],
  ['callback_hook_node', '1. same from Node (engine.preToolUse; JS callback; Promise)'],
  ['callback_hook_sync_node', '1. same from Node (engine.preToolUseSync)'],
  ['nohooks_node', '1. engine without hooks, from Node (engine.preToolUse, Promise)'],
  ['nohooks_sync_node', '1. engine without hooks, from Node (engine.preToolUseSync)'],
  ['callback_hook_python', '1. same from Python (engine.pre_tool_use; Python callback; blocking run)'],
  ['callback_hook_async_python', '1. same from Python (await engine.pre_tool_use_async; Python callback)'],
  ['nohooks_python', '1. engine without hooks, from Python (engine.pre_tool_use)'],
  ['nohooks_async_python', '1. engine without hooks, from Python (await engine.pre_tool_use_async)'],
  ['registry_decide_python', '2. registry from Python: run_pre_tool_call_decide, 1 Python callback'],
  ['antigravity_hookline_python', '2. Antigravity SDK hooks from Python: 1 decide hook, hookline.antigravity.HookRunner.dispatch_pre_tool_call'],
  ['antigravity_sdk_python', '2. same through the SDK\'s own pure-Python HookRunner (google-antigravity)'],
  ['serde_floor_parse_serialise', '2. floor: serde_json parse + serialise of the context (Rust)'],
  ['registry_1cb_c', '2. hl_registry_run(pre_tool_call_decide), 1 C callback'],
  ['registry_10cb_c', '2. hl_registry_run(pre_tool_call_decide), 10 C callbacks'],
  ['spawn_floor_c', '3. floor: posix_spawn `/bin/sh -c` + pipes + payload + wait (C)'],
  ['spawn_hookline_c', '3. hl_engine_run(PreToolUse), 1 command hook (C)'],
  ['spawn_hookline_async_c', '3. same through hl_engine_run_async, caller waits for done (C)'],
  ['spawn_hookline_traced_c', '3. one command hook, trace handler set (C)'],
  ['spawn_hookline_gated_pinned_c', '3. one command hook, gated with a pinned script (C)'],
  ['spawn_osexec_go', '4. Go os/exec (exec.Command + Run)'],
  ['spawn_hookline_go', '4. hookline from Go (Engine.PreToolUse, async run)'],
  ['spawn_hookline_cgo_sync_go', '4. hookline from Go, direct cgo call of hl_engine_run (no binding; reference)'],
  ['spawn_childprocess_node', '4. Node child_process.spawn'],
  ['spawn_hookline_node', '4. hookline from Node (engine.preToolUse, Promise)'],
  ['spawn_hookline_sync_node', '4. hookline from Node (engine.preToolUseSync)'],
  ['spawn_subprocess_python', '4. Python subprocess.run'],
  ['spawn_hookline_python', '4. hookline from Python (engine.pre_tool_use)'],
  ['spawn_hookline_async_python', '4. hookline from Python (await engine.pre_tool_use_async)'],
  ['parallel_8x200ms_c', '5. 8 PostToolUse hooks of 200 ms, one hl_engine_run (wall)'],
  ['claude_pre_tool_use_4x200ms_c', "5. 4 Claude Code PreToolUse hooks of 200 ms, one hl_engine_run (wall)"],
  ['http_hook_c', '6. http hook, loopback keep-alive server (C)'],
  ['http_floor_c', '6. floor: the same POST by a raw keep-alive client (C)'],
  ['prompt_hook_c', '6. prompt hook through the host model handler'],
  ['callback_hook_paired_c', '6. callback hook that allows, measured alongside the prompt hook (C)'],
];
p('### Latency');
p();
p('| measurement | median | p99 | samples |');
p('|---|---:|---:|---:|');
for (const [name, label] of LATENCY) {
  const s = stat(name);
  if (s) p(`| ${label} | ${fmtNs(s.median)} | ${fmtNs(s.p99)} | ${s.n}${s.runs > 1 ? ` (${s.runs} runs)` : ''} |`);
}
p();

// ------------------------------------------------------------------ ratios and targets
const rows = [];
// A ratio of two measurements. When both were measured in the same number of alternating
// process runs (the registry and its floor), run i of one is paired with run i of the other and
// the median of the per-pair ratios is reported, so a slow phase of the machine hits both sides.
function ratio(label, num, den, target, field = 'median') {
  const a = stat(num);
  const b = stat(den);
  const ra = samples.get(num);
  const rb = samples.get(den);
  let r = a && b ? a[field] / b[field] : null;
  if (ra && rb && ra.length > 1 && ra.length === rb.length) r = med(ra.map((x, i) => x[field] / rb[i][field]));
  rows.push([label, fmtRatio(r), target == null ? '—' : `≤ ${target.toFixed(2)}`, r == null || target == null ? '' : r <= target ? 'PASS' : 'MISS']);
}
function absolute(label, name, limitNs) {
  const s = stat(name);
  rows.push([label, s ? fmtNs(s.median) : 'n/a', `≤ ${fmtNs(limitNs)}`, s ? (s.median <= limitNs ? 'PASS' : 'MISS') : '']);
}
absolute('1. no hook matches: median hl_engine_run (C)', 'nomatch_c', 2000);
absolute('1. async hand-off: 1 C callback hook through hl_engine_run_async + done (median)', 'callback_hook_async_c', 15000);
{
  // What hookline adds to an asynchronous run beyond the run itself and the platform's wake-up.
  const a = stat('callback_hook_async_c');
  const f = stat('handoff_floor_c');
  rows.push([
    "1. async hand-off: hookline's share (async run − hand-off floor; medians)",
    a && f ? fmtNs(a.median - f.median) : 'n/a',
    '—',
    '',
  ]);
}
{
  // Tracing: what a trace handler adds to a run that matches nothing (medians; target 0.3 µs).
  const a = stat('nomatch_traced_c');
  const b = stat('nomatch_c');
  const d = a && b ? a.median - b.median : null;
  rows.push([
    '1. no hook matches, trace handler set − without (C; medians)',
    d == null ? 'n/a' : `${d < 0 ? '−' : ''}${fmtNs(Math.abs(d))}`,
    '≤ 300 ns',
    d == null ? '' : d <= 300 ? 'PASS' : 'MISS',
  ]);
}
absolute('1. engine without hooks, from Go through the binding (median)', 'nohooks_go', 5000);
absolute('1. engine without hooks, from Node, sync (median)', 'nohooks_sync_node', 5000);
absolute('1. engine without hooks, from Node, Promise (median)', 'nohooks_node', 5000);
absolute('1. 1 JS callback hook from Node, sync (median)', 'callback_hook_sync_node', 5000);
{
  // No target was set for Python: reported beside the Go and Node rows.
  const s = stat('nohooks_python');
  rows.push(['1. engine without hooks, from Python (median)', s ? fmtNs(s.median) : 'n/a', '—', '']);
  const a = stat('nohooks_async_python');
  rows.push(['1. engine without hooks, from Python, asyncio (median)', a ? fmtNs(a.median) : 'n/a', '—', '']);
}
ratio('2. registry, 1 callback / serde_json floor (median)', 'registry_1cb_c', 'serde_floor_parse_serialise', 2.0);
ratio('2. registry, 10 callbacks / serde_json floor (median)', 'registry_10cb_c', 'serde_floor_parse_serialise', null);
ratio('2. Antigravity SDK decide hook: hookline.antigravity / SDK HookRunner (median of per-round ratios)', 'antigravity_hookline_python', 'antigravity_sdk_python', 2.0);
ratio('3. one command hook: hookline / posix_spawn floor (median)', 'spawn_hookline_c', 'spawn_floor_c', 1.1);
ratio('3. one command hook: hookline / posix_spawn floor (p99)', 'spawn_hookline_c', 'spawn_floor_c', null, 'p99');
ratio('3. one command hook: hookline async / posix_spawn floor (median)', 'spawn_hookline_async_c', 'spawn_floor_c', null);
ratio('3. one command hook, trace handler set / without (C; median)', 'spawn_hookline_traced_c', 'spawn_hookline_c', 1.02);
ratio('3. gated with a pinned script / ungated, one command hook (median)', 'spawn_hookline_gated_pinned_c', 'spawn_hookline_c', 1.03);
ratio('4. Go: hookline via binding / os/exec (median)', 'spawn_hookline_go', 'spawn_osexec_go', 1.0);
ratio('4. Go: direct blocking hl_engine_run / os/exec (median; reference)', 'spawn_hookline_cgo_sync_go', 'spawn_osexec_go', null);
ratio('4. Node: hookline via binding / child_process.spawn (median)', 'spawn_hookline_node', 'spawn_childprocess_node', 1.0);
ratio('4. Node: hookline sync / child_process.spawn (median)', 'spawn_hookline_sync_node', 'spawn_childprocess_node', null);
ratio('4. hookline from Python / subprocess.run (median)', 'spawn_hookline_python', 'spawn_subprocess_python', 1.0);
ratio('4. hookline from Python, asyncio / subprocess.run (median)', 'spawn_hookline_async_python', 'spawn_subprocess_python', null);
ratio('4. hookline from Go / from C (median)', 'spawn_hookline_go', 'spawn_hookline_c', null);
ratio('4. hookline from Node / from C (median)', 'spawn_hookline_node', 'spawn_hookline_c', null);
ratio('4. hookline from Python / from C (median)', 'spawn_hookline_python', 'spawn_hookline_c', null);
absolute('5. 8 × 200 ms PostToolUse hooks: wall (median)', 'parallel_8x200ms_c', 300e6);
absolute('5. 4 × 200 ms Claude Code PreToolUse hooks: wall (median)', 'claude_pre_tool_use_4x200ms_c', 300e6);
{
  const f = val('throughput_spawn_floor_c');
  const h = val('throughput_command_async_c');
  const r = f && h ? h / f : null;
  rows.push(['5. command-hook throughput, 8 threads: hookline async / posix_spawn floor', fmtRatio(r), '≥ 0.95', r == null ? '' : r >= 0.95 ? 'PASS' : 'MISS']);
}
ratio('6. http hook / raw keep-alive POST floor (median)', 'http_hook_c', 'http_floor_c', 1.25);
{
  // Within 5 µs of the callback-hook row: the C-callback run of row 1, and the one measured
  // alternately with the prompt hook in the same loop.
  const ph = stat('prompt_hook_c');
  for (const [name, what] of [['callback_hook_sync_c', 'row 1'], ['callback_hook_paired_c', 'measured alongside']]) {
    const cb = stat(name);
    const d = ph && cb ? ph.median - cb.median : null;
    rows.push([`6. prompt hook − callback hook (${what}; medians)`, d == null ? 'n/a' : fmtNs(d), '≤ 5.0 µs', d == null ? '' : d <= 5000 ? 'PASS' : 'MISS']);
  }
}
p('### Ratios and targets');
p();
p('| what | result | target | |');
p('|---|---:|---:|---|');
for (const r of rows) p(`| ${r.join(' | ')} |`);
p();

// ------------------------------------------------------------------ throughput
const threads = val('throughput_threads');
p(`### Throughput (${threads ?? 8} host threads, each running one hook run after another)`);
p();
p('| what | runs/s |');
p('|---|---:|');
for (const [name, label] of [
  ['throughput_callback_async_c', 'hl_engine_run_async, 1 in-process callback hook'],
  ['throughput_callback_sync_c', 'hl_engine_run (sync), 1 in-process callback hook (reference)'],
  ['throughput_command_async_c', 'hl_engine_run_async, 1 command hook'],
  ['throughput_spawn_floor_c', 'floor: raw posix_spawn of the same hook'],
]) {
  const v = val(name);
  if (v != null) p(`| ${label} | ${Math.round(v).toLocaleString('en-US')} |`);
}
p();

// ------------------------------------------------------------------ memory
p('### Memory and descriptors');
p();
const kib = (n) => (n == null ? 'n/a' : `${Math.round(n).toLocaleString('en-US')} KiB`);
p('| what | value |');
p('|---|---:|');
p(`| engine with ${val('engine_1000_hooks_count') ?? 1000} configured hooks, half exact-name and half regex matchers (${Math.round((val('engine_1000_hooks_config_bytes') ?? 0) / 1024)} KiB of config JSON): RSS kept by the engine | ${kib(val('engine_1000_hooks_mixed_rss_delta'))} |`);
p(`| same, all 1000 matchers exact names (\`Tool1\\|Other1\`) | ${kib(val('engine_1000_hooks_exact_rss_delta'))} |`);
p(`| same, all 1000 matchers regexes (\`mcp__server1__.*\`) | ${kib(val('engine_1000_hooks_regex_rss_delta'))} |`);
p(`| hl_engine_new time: mixed / exact / regex | ${['mixed', 'exact', 'regex'].map((k) => val(`engine_1000_hooks_${k}_new_ms`)?.toFixed(1) ?? 'n/a').join(' / ')} ms |`);
p(`| process RSS with that engine alive | ${kib(val('process_rss_with_1000_hook_engine'))} |`);
const grow = [];
for (const [k, label] of [['registry', 'registry runs (1 callback)'], ['command', 'command-hook runs (hl_engine_run)']]) {
  const n = val(`${k}_runs`);
  const a = val(`${k}_rss_before`);
  const m = val(`${k}_rss_half`);
  const b = val(`${k}_rss_after`);
  const fa = val(`${k}_fds_before`);
  const fb = val(`${k}_fds_after`);
  p(`| ${(n ?? 0).toLocaleString('en-US')} ${label}: RSS before → halfway → after | ${kib(a)} → ${kib(m)} → ${kib(b)} |`);
  p(`| same: open descriptors before → after | ${fa} → ${fb} |`);
  grow.push(`${k}: RSS ${b != null && a != null ? (b - a >= 0 ? '+' : '') + (b - a) : 'n/a'} KiB, fds ${fb != null && fa != null ? (fb - fa >= 0 ? '+' : '') + (fb - fa) : 'n/a'}`);
}
const kids = val('command_children_after');
if (kids != null) p(`| child processes (zombies included) left after the command-hook runs | ${kids} |`);
p();
p(`Growth: ${grow.join('; ')}.`);

console.log(out.join('\n'));
