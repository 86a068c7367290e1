'use strict';
// Stage the main package for packing:
//
//   node scripts/stage-package.js OUTDIR
//
// OUTDIR receives the files package.json publishes and a package.json with
// one optional dependency per platform package (`@hookline/<platform>` at
// this version; lib/platform.js lists the platforms), so that npm installs
// the library of the machine it installs on. The checkout's package.json
// does not list them: `npm ci` here could not lock packages before they are
// published. The staged package is checked (scripts/check-package.js) and
// has no scripts or devDependencies; `npm pack OUTDIR` makes the tarball.

const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { PLATFORMS, platformPackageName } = require('../lib/platform');

const outDir = process.argv[2];
if (!outDir) {
  console.error('usage: node scripts/stage-package.js OUTDIR');
  process.exit(2);
}
const root = path.resolve(__dirname, '..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));

const staged = {};
for (const [k, v] of Object.entries(pkg)) {
  if (k === 'scripts' || k === 'devDependencies' || k === 'allowScripts') continue;
  staged[k] = v;
  if (k === 'dependencies') {
    staged.optionalDependencies = Object.fromEntries(Object.keys(PLATFORMS).map((p) => [platformPackageName(p), pkg.version]));
  }
}

fs.rmSync(outDir, { recursive: true, force: true });
fs.mkdirSync(outDir, { recursive: true });
for (const entry of pkg.files) {
  fs.cpSync(path.join(root, entry), path.join(outDir, entry), { recursive: true });
}
fs.writeFileSync(path.join(outDir, 'package.json'), `${JSON.stringify(staged, null, 2)}\n`);
const check = spawnSync(process.execPath, [path.join(__dirname, 'check-package.js'), outDir], { stdio: 'inherit' });
if (check.status !== 0) process.exit(1);
console.log(outDir);
