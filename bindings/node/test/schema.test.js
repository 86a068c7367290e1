'use strict';
// The binding against the ABI schema (include/hookline.schema.json, written from the Rust
// model): every status, event, hook point, dialect, option, input enum, report field and C
// function the library has, this package has too (in lib/ and in index.d.ts), with the same
// names and numbers. A value added in Rust and forgotten here fails this test.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');

const SCHEMA = path.join(__dirname, '..', '..', '..', 'include', 'hookline.schema.json');
const DTS = path.join(__dirname, '..', 'index.d.ts');

// C functions this binding does not call, on purpose (its log output goes through the
// library's default, stderr; a registry run's result is always read whole). A new C function
// fails the test until lib/native.js declares it or names it here.
const NOT_BOUND = ['hl_set_log_handler', 'hl_engine_reserve_run', 'hl_engine_run_reserved', 'hl_registry_run_brief'];

const present = fs.existsSync(SCHEMA);
const skip = present ? false : 'outside the hookline checkout (no include/hookline.schema.json)';
const schema = present ? JSON.parse(fs.readFileSync(SCHEMA, 'utf8')) : null;
const dts = fs.readFileSync(DTS, 'utf8');

const snake = (k) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const sorted = (a) => [...a].sort();

/** The member names of `export interface <name> { ... }` in index.d.ts (comments dropped). */
function interfaceKeys(name) {
  const start = dts.indexOf(`export interface ${name} `);
  assert.notEqual(start, -1, `index.d.ts has no interface ${name}`);
  let depth = 0;
  let end = start;
  for (let i = dts.indexOf('{', start); i < dts.length; i++) {
    if (dts[i] === '{') depth++;
    if (dts[i] === '}' && --depth === 0) {
      end = i;
      break;
    }
  }
  const body = dts
    .slice(dts.indexOf('{', start) + 1, end)
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\/\/.*$/gm, '');
  const keys = [];
  let level = 0;
  for (const line of body.split('\n')) {
    const m = level === 0 && line.match(/^\s*([A-Za-z_][A-Za-z0-9_]*)\??:/);
    if (m) keys.push(m[1]);
    level += (line.match(/[{(]/g) || []).length - (line.match(/[})]/g) || []).length;
  }
  return keys;
}

/** The string literals of the union after `prefix` on one line of index.d.ts. */
function union(prefix) {
  const line = dts.split('\n').find((l) => l.trim().startsWith(prefix));
  assert.ok(line, `index.d.ts has no line starting with ${prefix}`);
  return [...line.matchAll(/'([^']*)'/g)].map((m) => m[1]);
}

test('statuses', { skip }, () => {
  const { Status } = require('..');
  assert.deepEqual(
    Object.entries(Status),
    schema.statuses.map((s) => [s.name, s.number]),
  );
});

test('events, in lib/ and in index.d.ts', { skip }, () => {
  const { HookEvent } = require('..');
  assert.deepEqual(
    Object.entries(HookEvent),
    schema.events.map((e) => [e.name, e.number]),
  );
  for (const e of schema.events) {
    assert.ok(dts.includes(`  ${e.name}: ${e.number};`), `index.d.ts HookEvent lacks ${e.name} = ${e.number}`);
  }
});

test('hook points', { skip }, () => {
  const { HookPoint } = require('..');
  assert.deepEqual(
    Object.entries(HookPoint),
    schema.hook_points.map((p) => [p.name, p.number]),
  );
});

test('dialects, registry contracts and the enumerated inputs in index.d.ts', { skip }, () => {
  assert.deepEqual(union('export type Dialect ='), schema.enums.dialect);
  assert.deepEqual(
    union('export type RegistryContract ='),
    schema.registry_contracts.map((c) => c.name),
  );
  assert.deepEqual(sorted(union('reason:')), sorted(schema.enums.session_end_reason));
  assert.deepEqual(sorted(union('trigger:')), sorted(schema.enums.compaction_trigger));
  assert.deepEqual(sorted(union('mode:')), sorted(schema.enums.compaction_mode));
  assert.deepEqual(
    sorted(union('trigger?:')),
    sorted(schema.enums.session_start_trigger),
  );
  assert.deepEqual(sorted(union("decision: 'continue'")), sorted(schema.enums.pre_tool_use_decision));
});

test('options: EngineOptions in index.d.ts', { skip }, () => {
  const keys = interfaceKeys('EngineOptions')
    .filter((k) => k !== 'onCallbackError') // the binding's own, not sent to the library
    .map(snake);
  assert.deepEqual(sorted(keys), sorted(schema.options.map((o) => o.name)));
});

test('hook sources: HookSource in index.d.ts', { skip }, () => {
  const keys = interfaceKeys('HookSource').map(snake);
  assert.deepEqual(sorted(keys), sorted(schema.hook_source.map((o) => o.name)));
});

test('hook reports: HookReport in index.d.ts', { skip }, () => {
  const keys = interfaceKeys('HookReport').map(snake);
  assert.deepEqual(sorted(keys), sorted(schema.outcomes.shapes.hook_report.map((f) => f.name)));
});

test('C functions: lib/native.js', { skip }, () => {
  const src = fs.readFileSync(path.join(__dirname, '..', 'lib', 'native.js'), 'utf8');
  const decls = src.slice(src.indexOf('const DECLS = {'), src.indexOf('};', src.indexOf('const DECLS = {')));
  const declared = [...decls.matchAll(/^ {2}(hl_[a-z_]+):/gm)].map((m) => m[1]);
  assert.ok(declared.length > 20, `found only ${declared.length} declarations`);
  const functions = schema.functions.map((f) => f.name);
  assert.deepEqual(
    declared.filter((f) => !functions.includes(f)),
    [],
    'declared but not in the library',
  );
  assert.deepEqual(
    sorted(functions.filter((f) => !declared.includes(f))),
    sorted(NOT_BOUND),
    'not declared in lib/native.js (declare it, or name it in NOT_BOUND)',
  );
});
