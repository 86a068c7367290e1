'use strict';
// The Gemini CLI dialect through Node: a host's .gemini/settings.json hooks
// get Gemini CLI's decisions (docs/dialects.md).

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { Engine } = require('..');
const { engineOptions } = require('./helpers');

function engine(t, options) {
  const e = new Engine(options);
  t.after(() => e.close());
  return e;
}

const say = (obj) => `cat >/dev/null; printf '%s\\n' '${JSON.stringify(obj)}'`;
const hook = (command, extra = {}) => ({ type: 'command', command, ...extra });

test('gemini_before_tool_deny_joins_every_reason_and_allow_never_approves', async (t) => {
  const settings = {
    hooks: {
      BeforeTool: [{ matcher: 'write_file|replace', hooks: [hook(say({ decision: 'allow', reason: 'scanned' })), hook(say({ decision: 'deny', reason: 'has a key' }))] }],
    },
  };
  const e = engine(t, engineOptions(t, { dialect: 'gemini', hooks: settings }));
  const out = await e.preToolUse({ toolName: 'write_file', toolInput: { file_path: 'a', content: 'x' } });
  assert.equal(out.decision, 'deny');
  assert.equal(out.reason, 'scanned\nhas a key');
  assert.equal(e.preToolUseSync({ toolName: 'glob' }).decision, 'continue');
});

test('gemini_model_hooks_return_dialect_fields_and_the_payload_is_gemini_s', async (t) => {
  const opts = engineOptions(t, {
    dialect: 'gemini',
    hooks: {
      hooks: {
        BeforeModel: [{ hooks: [hook(`cat > seen.json; echo '{"hookSpecificOutput":{"llm_request":{"config":{"temperature":0}}}}'`)] }],
        BeforeToolSelection: [{ hooks: [hook(say({ hookSpecificOutput: { toolConfig: { mode: 'NONE' } } }))] }],
      },
    },
  });
  const e = engine(t, opts);
  const out = await e.runNamed('BeforeModel', { llmRequest: { model: 'gemini-2.5-flash', messages: [] } });
  assert.deepEqual(out.dialectFields, { gemini: { llm_request: { config: { temperature: 0 } } } });
  // A hook that only rewrites the request decides nothing.
  assert.equal(out.decision, 'continue');
  const seen = JSON.parse(fs.readFileSync(path.join(opts.workspace, 'seen.json'), 'utf8'));
  assert.equal(seen.hook_event_name, 'BeforeModel');
  assert.equal(seen.transcript_path, '');
  assert.equal(seen.llm_request.model, 'gemini-2.5-flash');
  assert.match(seen.timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  const tools = e.runNamedSync('BeforeToolSelection', { llmRequest: {} });
  assert.deepEqual(tools.dialectFields.gemini.toolConfig, { mode: 'NONE', allowedFunctionNames: [] });
});

test('gemini_after_tool_block_replaces_the_result_and_previews_name_the_dialect', async (t) => {
  const opts = engineOptions(t);
  fs.mkdirSync(path.join(opts.workspace, '.gemini'));
  const file = path.join(opts.workspace, '.gemini', 'settings.json');
  fs.writeFileSync(file, JSON.stringify({ hooks: { AfterTool: [{ hooks: [hook(say({ decision: 'block', reason: 'redacted' }), { timeout: 2500 })] }] } }));
  const e = engine(t, { ...opts, hooksFile: file });
  const out = await e.postToolUse({ toolName: 'read_file', toolResponse: { llmContent: 'secret' } });
  assert.equal(out.blockReason, 'redacted');
  assert.equal(out.blockReplacesResult, true);
  const [preview] = e.previews();
  assert.equal(preview.dialect, 'gemini');
  assert.equal(preview.timeoutMs, 2500);
  assert.equal(preview.timeoutSeconds, null);
});
