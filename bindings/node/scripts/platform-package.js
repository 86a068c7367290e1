'use strict';
// Write the npm package that carries libhookline for one platform:
//
//   node scripts/platform-package.js PLATFORM LIBRARY OUTDIR
//
// PLATFORM is a key of lib/platform.js (linux-x64-gnu, darwin-arm64, ...),
// LIBRARY the built (stripped) shared library for it. OUTDIR receives
// package.json (name @hookline/PLATFORM, this package's version, and the
// `os`/`cpu`/`libc` fields npm matches against the machine), the library
// under the file name the loader looks for, README.md and the licences; then
// `npm pack OUTDIR` makes the tarball. The main package lists every platform
// package as an optional dependency (scripts/check-package.js checks it).

const fs = require('node:fs');
const path = require('node:path');
const { PLATFORMS, platformPackageName } = require('../lib/platform');

const [platform, library, outDir] = process.argv.slice(2);
if (!platform || !library || !outDir) {
  console.error('usage: node scripts/platform-package.js PLATFORM LIBRARY OUTDIR');
  process.exit(2);
}
const entry = PLATFORMS[platform];
if (!entry) {
  console.error(`platform-package: unknown platform '${platform}' (known: ${Object.keys(PLATFORMS).join(', ')})`);
  process.exit(2);
}
if (!fs.statSync(library, { throwIfNoEntry: false })?.isFile()) {
  console.error(`platform-package: ${library} is not a file`);
  process.exit(2);
}

const root = path.resolve(__dirname, '..');
const main = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const name = platformPackageName(platform);
const pkg = {
  name,
  version: main.version,
  description: `libhookline (the native library of the hookline package) for ${platform}`,
  license: main.license,
  repository: main.repository,
  homepage: main.homepage,
  os: [entry.os],
  cpu: [entry.cpu],
  ...(entry.libc ? { libc: [entry.libc] } : {}),
  files: [entry.file, 'README.md', 'LICENSE-MIT', 'LICENSE-APACHE'],
  preferUnplugged: true,
};

fs.rmSync(outDir, { recursive: true, force: true });
fs.mkdirSync(outDir, { recursive: true });
fs.writeFileSync(path.join(outDir, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
fs.copyFileSync(library, path.join(outDir, entry.file));
fs.chmodSync(path.join(outDir, entry.file), 0o755);
for (const f of ['LICENSE-MIT', 'LICENSE-APACHE']) fs.copyFileSync(path.join(root, f), path.join(outDir, f));
fs.writeFileSync(
  path.join(outDir, 'README.md'),
  `# ${name}

The prebuilt native library of [hookline](https://www.npmjs.com/package/hookline) for
${platform} (\`os\` ${entry.os}, \`cpu\` ${entry.cpu}${entry.libc ? `, \`libc\` ${entry.libc}` : ''}).

Do not install it directly: \`npm install hookline\` installs it as an optional dependency on
${platform}, and hookline loads \`${entry.file}\` from here. Documentation:
${main.homepage}
`,
);
console.log(outDir);
