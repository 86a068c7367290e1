'use strict';
// Where libhookline comes from. Each supported platform has its own npm
// package carrying the prebuilt library (`@hookline/linux-x64-gnu`, ...), and
// this package lists them all as optionalDependencies: npm installs the one
// whose `os`, `cpu` and `libc` fields match the machine and skips the others,
// as native packages such as esbuild do.

const fs = require('node:fs');
const path = require('node:path');

/**
 * The platforms with a prebuilt library: the package suffix, the npm
 * `os`/`cpu`/`libc` fields of its package, and the library's file name.
 */
const PLATFORMS = Object.freeze({
  'linux-x64-gnu': { os: 'linux', cpu: 'x64', libc: 'glibc', file: 'libhookline.so' },
  'linux-arm64-gnu': { os: 'linux', cpu: 'arm64', libc: 'glibc', file: 'libhookline.so' },
  'linux-x64-musl': { os: 'linux', cpu: 'x64', libc: 'musl', file: 'libhookline.so' },
  'darwin-x64': { os: 'darwin', cpu: 'x64', libc: null, file: 'libhookline.dylib' },
  'darwin-arm64': { os: 'darwin', cpu: 'arm64', libc: null, file: 'libhookline.dylib' },
  'win32-x64': { os: 'win32', cpu: 'x64', libc: null, file: 'hookline.dll' },
});

/** The npm package carrying the library for `platform` (a key of PLATFORMS). */
function platformPackageName(platform) {
  return `@hookline/${platform}`;
}

/**
 * The C library of this Linux process: 'glibc' or 'musl' (what npm's `libc`
 * field compares), or null when it cannot be told: the C library mapped into
 * this process, else Node's diagnostic report (it names a glibc version only
 * on glibc).
 */
function detectLibc() {
  try {
    const maps = fs.readFileSync('/proc/self/maps', 'utf8');
    if (/\/ld-musl-[^/\s]*\.so|\/libc\.musl-/.test(maps)) return 'musl';
    if (/\/libc\.so\.6\b|\/libc-2\.[0-9]+\.so\b/.test(maps)) return 'glibc';
  } catch {
    // no /proc
  }
  try {
    const report = process.report.getReport();
    if (report.header.glibcVersionRuntime) return 'glibc';
    if ((report.sharedObjects || []).some((f) => /(^|\/)(ld-musl-|libc\.musl-)/.test(f))) return 'musl';
  } catch {
    // no report support
  }
  return null;
}

/**
 * The platform name of a machine, in the PLATFORMS naming: `<os>-<cpu>` plus
 * `-gnu` / `-musl` on Linux, e.g. 'linux-x64-gnu', 'darwin-arm64', or
 * 'linux-riscv64-gnu' / 'freebsd-x64' for machines without a prebuilt library.
 */
function platformName(platform = process.platform, arch = process.arch, libc = platform === 'linux' ? detectLibc() : null) {
  if (platform !== 'linux') return `${platform}-${arch}`;
  return `${platform}-${arch}-${libc === 'musl' ? 'musl' : 'gnu'}`;
}

/** The library's file name on `platform` (process.platform). */
function libraryFileName(platform = process.platform) {
  switch (platform) {
    case 'darwin': return 'libhookline.dylib';
    case 'win32': return 'hookline.dll';
    default: return 'libhookline.so';
  }
}

/**
 * The library to load, in this order:
 * 1. `$HOOKLINE_LIB` (any path: a local build, an installed libhookline);
 * 2. inside a hookline source checkout, its fresh `target/release` build
 *    (development of this package);
 * 3. the library of the installed platform package for this machine.
 * Returns `{ path, source, platform }`; `path` is null when none exists.
 */
function resolveLibrary(packageRoot, platform = undefined) {
  if (process.env.HOOKLINE_LIB) return { path: process.env.HOOKLINE_LIB, source: 'HOOKLINE_LIB', platform };
  const name = libraryFileName();
  const repo = path.resolve(packageRoot, '..', '..');
  const inTree = path.join(repo, 'target', 'release', name);
  if (fs.existsSync(path.join(repo, 'include', 'hookline.h')) && fs.existsSync(inTree)) {
    return { path: inTree, source: 'checkout', platform };
  }
  if (platform === undefined) platform = platformName();
  const entry = PLATFORMS[platform];
  if (entry) {
    const pkg = platformPackageName(platform);
    let dir = null;
    try {
      dir = path.dirname(require.resolve(`${pkg}/package.json`, { paths: [packageRoot] }));
    } catch {
      // not installed
    }
    if (dir !== null) {
      const file = path.join(dir, entry.file);
      if (fs.existsSync(file)) return { path: file, source: pkg, platform };
    }
  }
  return { path: null, source: null, platform };
}

/** The message when no library can be found or loaded for `platform`. */
function missingLibraryMessage(platform = platformName(), detail = undefined) {
  const supported = Object.keys(PLATFORMS).join(', ');
  const build =
    'build libhookline from source (`cargo build --release` in the hookline repository) and set ' +
    `HOOKLINE_LIB to the path of ${libraryFileName()}.`;
  if (!PLATFORMS[platform]) {
    return (
      `hookline: there is no prebuilt libhookline for this platform, ${platform}` +
      (detail ? ` (${detail})` : '') +
      `. Prebuilt libraries exist for ${supported}. On ${platform}, ${build}`
    );
  }
  const pkg = platformPackageName(platform);
  return (
    `hookline: no usable native library for ${platform}` +
    (detail ? ` (${detail})` : '') +
    `. It comes in the package ${pkg}, an optional dependency of hookline that npm installs on ${platform} ` +
    '(unless optional dependencies are omitted, or a lockfile made on another platform is installed as is): ' +
    `run \`npm install ${pkg}\`, or ${build}`
  );
}

module.exports = {
  PLATFORMS,
  platformPackageName,
  detectLibc,
  platformName,
  libraryFileName,
  resolveLibrary,
  missingLibraryMessage,
};
