'use strict';
// How the published packages find the native library: one npm package per
// platform (`@hookline/<platform>`, with npm's os/cpu/libc fields), listed as
// optional dependencies of the staged main package, and a loader that picks
// the one for this machine or says which platform lacks one.
// (`make test-install` installs the real tarballs into a fresh project.)

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { PACKAGE_DIR, tempDir } = require('./helpers');
const {
  PLATFORMS,
  platformPackageName,
  platformName,
  detectLibc,
  resolveLibrary,
  missingLibraryMessage,
  libraryFileName,
} = require('../lib/platform');

const SCRIPTS = path.join(PACKAGE_DIR, 'scripts');
const VERSION = require('../package.json').version;

function runNode(args, options = {}) {
  return spawnSync(process.execPath, args, { encoding: 'utf8', timeout: 20_000, ...options });
}

/** Run `fn` with HOOKLINE_LIB unset. */
function withoutHooklineLib(fn) {
  const saved = process.env.HOOKLINE_LIB;
  delete process.env.HOOKLINE_LIB;
  try {
    return fn();
  } finally {
    if (saved !== undefined) process.env.HOOKLINE_LIB = saved;
  }
}

test('platform_names_follow_os_cpu_and_libc', () => {
  assert.equal(platformName('linux', 'x64', 'glibc'), 'linux-x64-gnu');
  assert.equal(platformName('linux', 'arm64', 'glibc'), 'linux-arm64-gnu');
  assert.equal(platformName('linux', 'x64', 'musl'), 'linux-x64-musl');
  assert.equal(platformName('linux', 'arm64', 'musl'), 'linux-arm64-musl');
  assert.equal(platformName('darwin', 'x64'), 'darwin-x64');
  assert.equal(platformName('darwin', 'arm64'), 'darwin-arm64');
  assert.equal(platformName('freebsd', 'x64'), 'freebsd-x64');
  // Windows: process.platform 'win32', the package @hookline/win32-x64 with hookline.dll.
  assert.equal(platformName('win32', 'x64'), 'win32-x64');
  assert.equal(libraryFileName('win32'), 'hookline.dll');
  assert.equal(PLATFORMS['win32-x64'].file, libraryFileName('win32'));
  assert.deepEqual(Object.keys(PLATFORMS), ['linux-x64-gnu', 'linux-arm64-gnu', 'linux-x64-musl', 'darwin-x64', 'darwin-arm64', 'win32-x64']);
});

test('the_c_library_of_this_process_is_detected_like_nodes_own_report_says', () => {
  if (process.platform !== 'linux') return;
  const glibc = Boolean(process.report.getReport().header.glibcVersionRuntime);
  assert.equal(detectLibc(), glibc ? 'glibc' : 'musl');
});

test('the_platform_package_is_found_through_node_resolution', (t) => {
  const root = tempDir(t);
  const pkgDir = path.join(root, 'node_modules', '@hookline', 'linux-arm64-gnu');
  fs.mkdirSync(pkgDir, { recursive: true });
  fs.writeFileSync(path.join(pkgDir, 'package.json'), JSON.stringify({ name: '@hookline/linux-arm64-gnu', version: VERSION }));
  fs.writeFileSync(path.join(pkgDir, 'libhookline.so'), 'not loaded here');
  const main = path.join(root, 'node_modules', 'hookline');
  fs.mkdirSync(main);
  withoutHooklineLib(() => {
    assert.deepEqual(resolveLibrary(main, 'linux-arm64-gnu'), {
      path: path.join(pkgDir, 'libhookline.so'),
      source: '@hookline/linux-arm64-gnu',
      platform: 'linux-arm64-gnu',
    });
    assert.equal(resolveLibrary(main, 'linux-x64-gnu').path, null, 'another platform package is not taken');
    assert.equal(resolveLibrary(main, 'linux-riscv64-gnu').path, null);
  });
});

test('no_prebuilt_library_for_a_platform_is_an_error_naming_it', () => {
  const unsupported = missingLibraryMessage('linux-riscv64-gnu');
  assert.match(unsupported, /no prebuilt libhookline for this platform, linux-riscv64-gnu/);
  assert.match(unsupported, /linux-x64-gnu, linux-arm64-gnu, linux-x64-musl, darwin-x64, darwin-arm64/);
  assert.match(unsupported, /HOOKLINE_LIB/);
  const notInstalled = missingLibraryMessage('linux-x64-musl');
  assert.match(notInstalled, /no usable native library for linux-x64-musl/);
  assert.match(notInstalled, /npm install @hookline\/linux-x64-musl/);
});

test('loading_without_the_platform_package_fails_naming_the_platform_and_package', (t) => {
  // The package as npm installs it, without its platform package.
  const root = tempDir(t);
  const main = path.join(root, 'node_modules', 'hookline');
  fs.mkdirSync(main, { recursive: true });
  for (const f of ['index.js', 'lib', 'package.json']) fs.cpSync(path.join(PACKAGE_DIR, f), path.join(main, f), { recursive: true });
  for (const dep of ['koffi', '@koromix']) {
    const from = path.join(PACKAGE_DIR, 'node_modules', dep);
    if (fs.existsSync(from)) fs.symlinkSync(from, path.join(root, 'node_modules', dep));
  }
  const env = { ...process.env };
  delete env.HOOKLINE_LIB;
  const r = runNode(['-e', "require('hookline')"], { cwd: root, env });
  assert.notEqual(r.status, 0, 'require succeeded without a library');
  const platform = platformName();
  assert.match(r.stderr, new RegExp(`hookline: (no usable native library for|there is no prebuilt libhookline for this platform,) ${platform}`));
  if (PLATFORMS[platform]) assert.match(r.stderr, new RegExp(`npm install @hookline/${platform}`));
});

test('platform_packages_declare_os_cpu_and_libc_and_carry_the_library', (t) => {
  const dir = tempDir(t);
  const library = path.join(dir, 'built-library');
  fs.writeFileSync(library, 'library bytes');
  for (const [platform, entry] of Object.entries(PLATFORMS)) {
    const out = path.join(dir, platform);
    const r = runNode([path.join(SCRIPTS, 'platform-package.js'), platform, library, out]);
    assert.equal(r.status, 0, r.stderr);
    const pkg = JSON.parse(fs.readFileSync(path.join(out, 'package.json'), 'utf8'));
    assert.equal(pkg.name, platformPackageName(platform));
    assert.equal(pkg.version, VERSION);
    assert.deepEqual(pkg.os, [entry.os]);
    assert.deepEqual(pkg.cpu, [entry.cpu]);
    assert.deepEqual(pkg.libc, entry.libc ? [entry.libc] : undefined);
    assert.deepEqual(pkg.files, [entry.file, 'README.md', 'LICENSE-MIT', 'LICENSE-APACHE']);
    assert.equal(fs.readFileSync(path.join(out, entry.file), 'utf8'), 'library bytes');
  }
  const bad = runNode([path.join(SCRIPTS, 'platform-package.js'), 'linux-riscv64-gnu', library, path.join(dir, 'x')]);
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /unknown platform 'linux-riscv64-gnu'/);
});

test('the_staged_main_package_depends_optionally_on_every_platform_package', (t) => {
  const out = path.join(tempDir(t), 'stage');
  const r = runNode([path.join(SCRIPTS, 'stage-package.js'), out]);
  assert.equal(r.status, 0, r.stderr);
  const pkg = JSON.parse(fs.readFileSync(path.join(out, 'package.json'), 'utf8'));
  assert.deepEqual(
    pkg.optionalDependencies,
    Object.fromEntries(Object.keys(PLATFORMS).map((p) => [`@hookline/${p}`, VERSION])),
  );
  assert.equal(pkg.os, undefined, 'the main package installs everywhere');
  assert.equal(pkg.cpu, undefined);
  assert.equal(pkg.scripts, undefined);
  assert.equal(pkg.devDependencies, undefined);
  for (const f of pkg.files) assert.ok(fs.existsSync(path.join(out, f)), `staged package lacks ${f}`);
});

test('packing_the_checkout_directly_is_refused_with_what_to_run', () => {
  const r = runNode([path.join(SCRIPTS, 'check-package.js')]);
  assert.equal(r.status, 1);
  assert.match(r.stderr, /optionalDependencies lacks @hookline\/linux-x64-gnu/);
  assert.match(r.stderr, /make npm-packages/);
});

test('package_readme_links_resolve_on_npm', () => {
  const readme = fs.readFileSync(path.join(PACKAGE_DIR, 'README.md'), 'utf8');
  const relative = [...readme.matchAll(/\]\(([^)\s]+)[^)]*\)/g)].map((m) => m[1]).filter((l) => !/^(https?:|mailto:|#)/.test(l));
  assert.deepEqual(relative, [], 'README.md links that npm cannot resolve');
});
