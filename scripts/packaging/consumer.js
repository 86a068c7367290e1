'use strict';
// The Node counterpart of consumer.c, run in a fresh project where npm
// installed hookline (make test-install, make test-dist):
//   node consumer.js PLATFORM
// The library must come from node_modules/@hookline/PLATFORM (no
// HOOKLINE_LIB); one engine event whose shell hook denies must be denied.
// APP_WORKSPACE names an existing directory.
const hookline = require('hookline');
const path = require('node:path');

const want = path.join(__dirname, 'node_modules', '@hookline', process.argv[2]);
if (!hookline.libraryPath.startsWith(want + path.sep)) {
  throw new Error(`loaded ${hookline.libraryPath}, not the library of ${want}`);
}
const engine = new hookline.Engine({
  workspace: process.env.APP_WORKSPACE,
  sessionId: 'install-test-node',
  trustStore: path.join(process.env.APP_WORKSPACE, 'trust.json'),
  hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo no >&2; exit 2' }] }] },
});
(async () => {
  const out = engine.runSync('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'ls' } });
  await engine.close();
  if (out.decision !== 'deny') throw new Error(`decision ${out.decision}, want deny`);
  console.log(`hookline ${hookline.version()} ok (node, ${process.argv[2]})`);
})().catch((err) => {
  console.error(err);
  process.exit(1);
});
