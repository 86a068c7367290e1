'use strict';
// Script pins in previews and the environment policy options (docs/trust.md).

const test = require('node:test');
const assert = require('node:assert/strict');
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { Engine } = require('..');
const { claudePreToolUse, engineOptions } = require('./helpers');

function engine(t, options) {
  const e = new Engine(options);
  t.after(() => e.close());
  return e;
}

const sha256 = (text) => crypto.createHash('sha256').update(text).digest('hex');

test('previews_carry_the_pins_of_the_scripts_a_gated_command_runs', async (t) => {
  const opts = engineOptions(t, { workspaceGated: true, hooks: claudePreToolUse(['sh "$CLAUDE_PROJECT_DIR"/guard.sh', 'echo none']) });
  const script = path.join(opts.workspace, 'guard.sh');
  const approved = '#!/bin/sh\necho approved >> ran\n';
  fs.writeFileSync(script, approved);
  const e = engine(t, opts);
  const [first, second] = e.previews();
  assert.deepEqual(first.pins, [{ path: script, sha256: sha256(approved) }]);
  assert.deepEqual(second.pins, []);
  assert.deepEqual(first.env, { inherit: true, scrub: [], set: [] });

  e.approve();
  assert.equal((await e.preToolUse({ toolName: 'Bash' })).hooks[0].skipped, null);
  fs.writeFileSync(script, '#!/bin/sh\necho evil >> ran\n');
  assert.equal(e.needsApproval, true, 'a changed script needs approval');
  const out = await e.preToolUse({ toolName: 'Bash' });
  assert.equal(out.hooks[0].skipped, 'changed_since_approval');
  assert.ok(out.messages.some((m) => m.text.includes(script)), 'the message names the file');
  assert.notEqual(e.previews()[0].pins[0].sha256, sha256(approved), 'previews show the bytes as they are now');
  fs.writeFileSync(script, approved);
  assert.equal(e.needsApproval, false, 'restoring the approved bytes restores the approval');
  assert.equal(e.preToolUseSync({ toolName: 'Bash' }).hooks[0].skipped, null);
});

test('hook_env_options_scrub_what_a_hook_sees_and_show_in_previews', async (t) => {
  const opts = engineOptions(t, {
    workspaceGated: true,
    hooks: claudePreToolUse(['env > env.txt']),
    env: { GITHUB_TOKEN: 'ghp_x', KEEP: '1' },
    untrustedHookEnv: { scrub: 'secrets', set: { CI: '1' } },
  });
  const e = engine(t, opts);
  const env = e.previews()[0].env;
  assert.equal(env.inherit, true);
  assert.equal(env.scrub.length, 13);
  assert.deepEqual(env.set, ['CI']);
  e.approve();
  await e.preToolUse({ toolName: 'Bash' });
  const dump = fs.readFileSync(path.join(opts.workspace, 'env.txt'), 'utf8');
  assert.doesNotMatch(dump, /^GITHUB_TOKEN=/m);
  assert.match(dump, /^KEEP=1$/m);
  assert.match(dump, /^CI=1$/m);
  assert.throws(() => new Engine({ ...opts, hookEnv: { scrub: 'all' } }), /hookEnv\.scrub/, "errors name the option as the binding spells it");
});
