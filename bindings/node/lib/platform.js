'use strict';
// Where libhookline comes from. The package carries one prebuilt library per
// platform at prebuilds/<platform>-<arch>/ (process.platform, process.arch:
// today linux-x64); the same layout lets per-platform packages be split off
// later, as native npm packages do.

const fs = require('node:fs');
const path = require('node:path');

/** The library's file name on `platform`. */
function libraryFileName(platform = process.platform) {
  switch (platform) {
    case 'darwin': return 'libhookline.dylib';
    case 'win32': return 'hookline.dll';
    default: return 'libhookline.so';
  }
}

/** The directory holding the prebuilt library for a platform. */
function prebuildDir(packageRoot, platform = process.platform, arch = process.arch) {
  return path.join(packageRoot, 'prebuilds', `${platform}-${arch}`);
}

/** The platforms this package carries a library for, e.g. ['linux-x64']. */
function carriedPlatforms(packageRoot) {
  try {
    return fs
      .readdirSync(path.join(packageRoot, 'prebuilds'))
      .filter((dir) => fs.readdirSync(path.join(packageRoot, 'prebuilds', dir)).some((f) => f.startsWith('libhookline') || f === 'hookline.dll'))
      .sort();
  } catch {
    return [];
  }
}

/**
 * The library to load, in this order:
 * 1. `$HOOKLINE_LIB` (any path: a local build, an installed libhookline);
 * 2. inside a hookline source checkout, its fresh `target/release` build
 *    (development of this package);
 * 3. the library this package carries for the current platform.
 * Returns `{ path, source }`, or `{ path: null, ... }` when none exists.
 */
function resolveLibrary(packageRoot) {
  if (process.env.HOOKLINE_LIB) return { path: process.env.HOOKLINE_LIB, source: 'HOOKLINE_LIB' };
  const name = libraryFileName();
  const repo = path.resolve(packageRoot, '..', '..');
  const inTree = path.join(repo, 'target', 'release', name);
  if (fs.existsSync(path.join(repo, 'include', 'hookline.h')) && fs.existsSync(inTree)) {
    return { path: inTree, source: 'checkout' };
  }
  const carried = path.join(prebuildDir(packageRoot), name);
  if (fs.existsSync(carried)) return { path: carried, source: 'prebuilt' };
  return { path: null, source: null };
}

/** The message when no library can be found or loaded. */
function missingLibraryMessage(packageRoot, detail) {
  const platform = `${process.platform}-${process.arch}`;
  const carried = carriedPlatforms(packageRoot);
  return (
    `hookline: no usable native library for ${platform}` +
    (detail ? ` (${detail})` : '') +
    `. This package carries prebuilt libraries for: ${carried.length ? carried.join(', ') : 'none'}. ` +
    `Install a hookline package built for ${platform}, or build libhookline from source ` +
    '(`cargo build --release` in the hookline repository) and set HOOKLINE_LIB to the path of ' +
    `${libraryFileName()}.`
  );
}

module.exports = { libraryFileName, prebuildDir, carriedPlatforms, resolveLibrary, missingLibraryMessage };
