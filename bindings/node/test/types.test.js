'use strict';
// index.d.ts describes the API: typed usage compiles under `tsc --strict`
// (CommonJS, ESM and `import = require`), and misuse does not.

const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { PACKAGE_DIR } = require('./helpers');

let tsc = null;
try {
  tsc = require.resolve('typescript/bin/tsc');
} catch {
  if (!process.env.CI) console.log('type tests skipped: typescript is not installed (npm install)');
}

function compile(files) {
  const args = [
    tsc, '--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext',
    '--target', 'es2022', '--lib', 'es2022,esnext.disposable', '--types', 'node',
    ...files.map((f) => path.join(PACKAGE_DIR, 'test', 'types', f)),
  ];
  return spawnSync(process.execPath, args, { cwd: PACKAGE_DIR, encoding: 'utf8', timeout: 120_000 });
}

// One compiler run (tsc is slow): the usage files must produce no error, the
// misuse file exactly the expected ones. typos.ts holds `@ts-expect-error` lines for misspelled
// options and input fields: it compiles only while every one of them is an error.
// Under CI=true typescript is part of the setup: its absence is a failure.
test('typed_usage_compiles_and_misuse_is_a_type_error', { skip: !tsc && !process.env.CI, timeout: 120_000 }, () => {
  assert.ok(tsc, 'CI=true but typescript is not installed (npm ci in bindings/node)');
  const r = compile(['usage.ts', 'usage.mts', 'usage.cts', 'typos.ts', 'misuse.ts']);
  const errors = r.stdout.split('\n').filter((line) => /error TS\d+/.test(line));
  assert.notEqual(r.status, 0, 'misuse.ts must not compile');
  assert.deepEqual(
    errors.filter((line) => !line.includes('misuse.ts')),
    [],
    'typed usage compiles under --strict',
  );
  assert.equal(errors.length, 2, r.stdout);
  assert.match(r.stdout, /Property 'toolName' is missing/);
  assert.match(r.stdout, /DecideReturn/);
});
