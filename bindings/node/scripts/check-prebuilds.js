'use strict';
// `npm pack` / `npm publish` guard (prepack): the package must carry the
// prebuilt libhookline of every platform its package.json declares
// (`os` x `cpu`), at prebuilds/<platform>-<arch>/, or installing it would give
// a package that cannot load. `make node-prebuild` at the repository root
// copies the current platform's build there.

const fs = require('node:fs');
const path = require('node:path');
const { libraryFileName, prebuildDir } = require('../lib/platform');

const root = path.resolve(__dirname, '..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const missing = [];
for (const platform of pkg.os || []) {
  for (const arch of pkg.cpu || []) {
    const file = path.join(prebuildDir(root, platform, arch), libraryFileName(platform));
    if (!fs.existsSync(file)) missing.push(path.relative(root, file));
  }
}
if (missing.length > 0) {
  console.error(
    `hookline: cannot pack without the prebuilt native library: missing ${missing.join(', ')}.\n` +
      'Run `make node-prebuild` at the repository root (it builds libhookline and copies it here).',
  );
  process.exit(1);
}
