'use strict';
// `npm pack` / `npm publish` guard (prepack), also run on the staged package
// by scripts/stage-package.js: what would make the published package unusable.
//
//   node scripts/check-package.js [PACKAGE_DIR]      (default: this package)
//
// - optionalDependencies must name exactly one `@hookline/<platform>` package
//   per platform of lib/platform.js, at this package's own version: npm
//   installs the one matching the machine, and the loader looks for it.
// - README.md must link only to absolute URLs or anchors: npm shows it on its
//   own site, where a relative link such as ../../docs/c-api.md leads nowhere.

const fs = require('node:fs');
const path = require('node:path');
const { PLATFORMS, platformPackageName } = require('../lib/platform');

const root = path.resolve(process.argv[2] || path.join(__dirname, '..'));
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const problems = [];

const want = Object.keys(PLATFORMS).map(platformPackageName).sort();
const optional = pkg.optionalDependencies || {};
const have = Object.keys(optional).sort();
for (const name of want) {
  if (!(name in optional)) problems.push(`optionalDependencies lacks ${name}`);
  else if (optional[name] !== pkg.version) problems.push(`optionalDependencies has ${name}@${optional[name]}, want ${pkg.version} (this package's version)`);
}
for (const name of have) if (!want.includes(name)) problems.push(`optionalDependencies names ${name}, which is no platform of lib/platform.js`);
if (pkg.os || pkg.cpu || pkg.libc) problems.push('the main package must not restrict os/cpu/libc: the platform packages do');

const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
for (const m of readme.matchAll(/\]\(([^)\s]+)[^)]*\)/g)) {
  const target = m[1];
  if (!/^(https?:|mailto:|#)/.test(target)) problems.push(`README.md links to '${target}', which does not resolve on npm (use an absolute URL)`);
}

if (problems.length > 0) {
  const how = pkg.optionalDependencies
    ? ''
    : '\n(the platform packages are added to a staged copy: pack with `make npm-packages` or scripts/npm-pack.sh)';
  console.error(`hookline: cannot pack ${root}:\n  ${problems.join('\n  ')}${how}`);
  process.exit(1);
}
