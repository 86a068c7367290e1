'use strict';
// The scenario corpus (tests/scenarios/<dialect>/<name>.json of the checkout) run through this
// binding: each file's options, workspace files, event and input, and its expected outcome
// subset, the same cases the Rust suite runs (tests/it/scenarios.rs describes the format). The
// JS API speaks camelCase: the expectation's keys are converted as the outcome's are (top level,
// `hooks[]`, `messages[]`, a PermissionRequest `decision`).

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { Engine } = require('..');

const CORPUS = path.join(__dirname, '..', '..', '..', 'tests', 'scenarios');
const present = fs.existsSync(CORPUS);
const files = present
  ? fs
      .readdirSync(CORPUS)
      .flatMap((d) =>
        fs.statSync(path.join(CORPUS, d)).isDirectory()
          ? fs.readdirSync(path.join(CORPUS, d)).filter((f) => f.endsWith('.json')).map((f) => path.join(d, f))
          : [],
      )
      .sort()
  : [];

const camel = (k) => k.replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase());
const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const camelKeys = (o) => (isObject(o) ? Object.fromEntries(Object.entries(o).map(([k, v]) => [camel(k), v])) : o);

/** An expected outcome (wire keys) with the keys the JS outcome has. */
function expectInJs(e) {
  const r = camelKeys(e);
  if (Array.isArray(e.hooks)) r.hooks = e.hooks.map(camelKeys);
  if (Array.isArray(e.messages)) r.messages = e.messages.map(camelKeys);
  if (isObject(e.decision)) r.decision = camelKeys(e.decision);
  return r;
}

/** Where `actual` differs from the subset `expect` (null: it matches). */
function mismatch(expect, actual, at) {
  if (isObject(expect) && isObject(actual)) {
    for (const [k, v] of Object.entries(expect)) {
      if (!(k in actual)) return `${at}.${k} is missing`;
      const m = mismatch(v, actual[k], `${at}.${k}`);
      if (m) return m;
    }
    return null;
  }
  if (Array.isArray(expect) && Array.isArray(actual) && expect.length === actual.length) {
    for (let i = 0; i < expect.length; i++) {
      const m = mismatch(expect[i], actual[i], `${at}[${i}]`);
      if (m) return m;
    }
    return null;
  }
  if (!isObject(expect) && !Array.isArray(expect) && expect === actual) return null;
  return `${at}: expected ${JSON.stringify(expect)}, got ${JSON.stringify(actual)}`;
}

test('the corpus is there', { skip: present ? false : 'outside the hookline checkout' }, () => {
  assert.ok(files.length >= 10, `${files}`);
  assert.ok(new Set(files.map((f) => path.dirname(f))).size >= 7, `${files}`);
});

test('the subset match notices a difference', () => {
  const out = { decision: 'deny', hooks: [{ exitCode: 2 }] };
  assert.equal(mismatch({ decision: 'deny' }, out, 'o'), null);
  assert.ok(mismatch({ decision: 'allow' }, out, 'o'));
  assert.ok(mismatch({ hooks: [] }, out, 'o'));
  assert.ok(mismatch({ hooks: [{ exitCode: 1 }] }, out, 'o'));
});

for (const file of files) {
  test(`scenario ${file}`, async () => {
    const scenario = JSON.parse(fs.readFileSync(path.join(CORPUS, file), 'utf8'));
    const ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hookline-scenario-')));
    try {
      for (const [rel, text] of Object.entries(scenario.files || {})) {
        fs.mkdirSync(path.dirname(path.join(ws, rel)), { recursive: true });
        fs.writeFileSync(path.join(ws, rel), text, { mode: 0o755 });
      }
      const options = { ...scenario.options, workspace: ws, sessionId: 'scenario' };
      if (options.hooks_file) options.hooks_file = path.join(ws, options.hooks_file);
      const engine = new Engine(options);
      try {
        const outcome = await engine.run(scenario.event, scenario.input);
        const m = mismatch(expectInJs(scenario.expect), outcome, 'outcome');
        assert.equal(m, null, `${m}\n  outcome: ${JSON.stringify(outcome)}`);
      } finally {
        engine.close();
      }
    } finally {
      fs.rmSync(ws, { recursive: true, force: true });
    }
  });
}
