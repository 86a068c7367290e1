'use strict';
// Engine conformance at the JS level (docs/protocol.md) through the Promise (async)
// and Sync APIs.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { Engine, HooklineError, Status, allow, deny } = require('..');
const callbacks = require('../lib/callbacks');
const { claudePreToolUse, vtPreToolUse, engineOptions, tempDir, waitFor } = require('./helpers');

function engine(t, options) {
  const e = new Engine(options);
  t.after(() => e.close());
  return e;
}

test('pre_tool_use_updated_input_chains_to_the_next_hook', async (t) => {
  const opts = engineOptions(t, {
    hooks: vtPreToolUse([
      `printf '%s' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"ls -la","sandbox":true}}}'`,
      'cat > seen.json',
    ]),
  });
  const e = engine(t, opts);
  const outcome = await e.preToolUse({ toolName: 'Bash', toolInput: { command: 'rm -rf /' }, toolCallId: 'call-1' });
  assert.equal(outcome.decision, 'continue');
  assert.deepEqual(outcome.updatedInput, { command: 'ls -la', sandbox: true });
  const seen = JSON.parse(fs.readFileSync(path.join(opts.workspace, 'seen.json'), 'utf8'));
  assert.deepEqual(seen.tool_input, { command: 'ls -la', sandbox: true }, 'hook 2 reads hook 1 updatedInput');
  assert.equal(seen.tool_name, 'Bash');
  assert.equal(seen.tool_use_id, 'call-1');
  assert.equal(seen.hook_event_name, 'PreToolUse');
  assert.equal(seen.cwd, opts.workspace);
  assert.equal(outcome.hooks.length, 2);
  assert.deepEqual(
    outcome.hooks.map((h) => [h.kind, h.exitCode, h.timedOut, h.skipped]),
    [
      ['command', 0, false, null],
      ['command', 0, false, null],
    ],
  );
});

test('pre_tool_use_exit_2_with_stderr_denies', async (t) => {
  const e = engine(t, engineOptions(t, { hooks: vtPreToolUse(["echo 'blocked by policy' >&2; exit 2", 'touch never-reached']) }));
  const outcome = await e.preToolUse({ toolName: 'Bash', toolInput: { command: 'curl x' } });
  assert.equal(outcome.decision, 'deny');
  assert.equal(outcome.reason, 'blocked by policy');
  assert.equal(outcome.hooks.length, 1, 'runs stop at the first deny');
  assert.equal(outcome.hooks[0].exitCode, 2);
  const sync = e.preToolUseSync({ toolName: 'Bash', toolInput: { command: 'curl x' } });
  assert.equal(sync.decision, 'deny');
  assert.equal(sync.reason, 'blocked by policy');
});

test('pre_tool_use_matcher_selects_hooks_by_tool_name', async (t) => {
  const e = engine(t, engineOptions(t, { hooks: claudePreToolUse(["echo no >&2; exit 2"], { matcher: 'Bash|Edit' }) }));
  assert.equal((await e.preToolUse({ toolName: 'Edit' })).decision, 'deny');
  const read = await e.preToolUse({ toolName: 'Read' });
  assert.equal(read.decision, 'continue');
  assert.deepEqual(read.hooks, []);
});

test('pre_tool_use_timeout_denies', async (t) => {
  const e = engine(t, engineOptions(t, { hooks: vtPreToolUse(['sleep 30'], { timeout: 1 }) }));
  const started = Date.now();
  const outcome = await e.preToolUse({ toolName: 'Bash', toolInput: { command: 'ls' } });
  const elapsed = Date.now() - started;
  assert.equal(outcome.decision, 'deny');
  assert.equal(outcome.hooks[0].timedOut, true);
  assert.equal(outcome.hooks[0].exitCode, null);
  assert.ok(outcome.messages.some((m) => /timed out/.test(m.text)), JSON.stringify(outcome.messages));
  assert.ok(elapsed < 1000 + 2000, `returned within timeout + 2 s (took ${elapsed} ms)`);
});

test('gated_engine_spawns_nothing_before_approve', async (t) => {
  const opts = engineOptions(t, { workspaceGated: true, hooks: claudePreToolUse(['touch ran.txt']) });
  const e = engine(t, opts);
  assert.equal(e.workspaceGated, true);
  assert.equal(e.needsApproval, true);
  const before = await e.preToolUse({ toolName: 'Bash', toolInput: {} });
  assert.equal(before.hooks.length, 1);
  assert.equal(before.hooks[0].skipped, 'not_approved');
  assert.equal(before.hooks[0].exitCode, null);
  assert.equal(before.hooks[0].timedOut, false);
  assert.equal(before.hooks[0].durationMs, 0);
  assert.equal(before.decision, 'continue');
  assert.ok(before.messages.some((m) => /not approved/.test(m.text)));
  assert.equal(e.preToolUseSync({ toolName: 'Bash' }).hooks[0].skipped, 'not_approved');
  assert.equal(fs.existsSync(path.join(opts.workspace, 'ran.txt')), false, 'the hook never ran');

  e.approve();
  assert.equal(e.needsApproval, false);
  const after = await e.preToolUse({ toolName: 'Bash', toolInput: {} });
  assert.equal(after.hooks[0].skipped, null);
  assert.equal(fs.existsSync(path.join(opts.workspace, 'ran.txt')), true);
});

test('persisted_approval_starts_a_new_engine_approved_and_changed_commands_need_approval', async (t) => {
  const opts = engineOptions(t, { workspaceGated: true, hooks: claudePreToolUse(['true']) });
  const first = engine(t, opts);
  first.approve({ persist: true });
  assert.ok(fs.existsSync(opts.trustStore));
  const second = engine(t, opts);
  assert.equal(second.needsApproval, false);
  second.reload({ ...opts, hooks: claudePreToolUse(['true', 'echo changed']) });
  assert.equal(second.needsApproval, true, 'a changed command set invalidates the approval');
});

test('ungated_engine_needs_no_approval', (t) => {
  const e = engine(t, engineOptions(t, { hooks: claudePreToolUse(['true']) }));
  assert.equal(e.workspaceGated, false);
  assert.equal(e.needsApproval, false);
});

test('digest_and_previews_follow_the_worked_example', (t) => {
  const e = engine(
    t,
    engineOptions(t, {
      hooks: { lifecycle: { pre_tool_use: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './check.sh', timeout_seconds: 10 }] }] } },
    }),
  );
  assert.equal(e.digest(), 'dab52b17fd76003bdb76b274ea78a3c98e23aee6eadbe388d34d5d946751bc89');
  assert.deepEqual(e.previews(), [
    { type: 'command', event: 'pre_tool_use', matcher: 'Bash', command: './check.sh', timeoutSeconds: 10, pins: [], env: { inherit: true, scrub: [], set: [] } },
  ]);
});

test('hooks_toml_option_is_read', (t) => {
  const toml = '[hooks.lifecycle]\npre_tool_use = [{ matcher = "Bash", hooks = [{ command = "./check.sh", timeout_seconds = 10 }] }]\n';
  const e = engine(t, engineOptions(t, { hooksToml: toml }));
  assert.equal(e.digest(), 'dab52b17fd76003bdb76b274ea78a3c98e23aee6eadbe388d34d5d946751bc89');
});

test('bad_options_are_errors_with_status', (t) => {
  const base = engineOptions(t);
  assert.throws(
    // A VT Code config rejects a malformed entry (a Claude Code one skips it: configWarnings()).
    () => new Engine({ ...base, hooks: { lifecycle: { pre_tool_use: [{ matcher: 'Bash', hooks: [] }] } } }),
    (err) => err instanceof HooklineError && err.status === Status.HL_ERR_INVALID_CONFIG && err.code === 'HL_ERR_INVALID_CONFIG',
  );
  assert.throws(
    () => new Engine({ ...base, workspace: path.join(base.workspace, 'missing') }),
    (err) => err.status === Status.HL_ERR_INVALID_ARGUMENT,
  );
  assert.throws(
    () => new Engine({ workspace: base.workspace }),
    (err) => err.status === Status.HL_ERR_INVALID_ARGUMENT && /`sessionId`/.test(err.message),
  );
  assert.throws(() => new Engine('nope'), (err) => err.status === Status.HL_ERR_INVALID_ARGUMENT);
});

test('bad_inputs_reject_with_status_and_missing_field', async (t) => {
  // The VT Code profile's strict inputs (without hooks, inputs validate like the Claude Code profile).
  const e = engine(t, engineOptions(t, { hooks: vtPreToolUse(['true'], { matcher: 'NoTool' }) }));
  await assert.rejects(e.preToolUse({ toolInput: {} }), (err) => err.status === Status.HL_ERR_INVALID_ARGUMENT && /tool_name/.test(err.message));
  await assert.rejects(e.sessionEnd({ turnId: 't', reason: 'bogus' }), (err) => err.status === Status.HL_ERR_INVALID_ARGUMENT);
  await assert.rejects(e.run('NoSuchEvent', {}), (err) => err.status === Status.HL_ERR_INVALID_ARGUMENT);
  await assert.rejects(e.run(99, {}), (err) => err.status === Status.HL_ERR_INVALID_ARGUMENT);
  assert.throws(() => e.userPromptSubmitSync({ turnId: 't' }), (err) => /prompt/.test(err.message));
});

test('failed_reload_changes_nothing', (t) => {
  const opts = engineOptions(t, { hooks: claudePreToolUse(['true']) });
  const e = engine(t, opts);
  const digest = e.digest();
  const bad = { lifecycle: { pre_tool_use: [{ hooks: [{ command: '  ' }] }] } };
  assert.throws(() => e.reload({ ...opts, hooks: bad }), (err) => err.status === Status.HL_ERR_INVALID_CONFIG);
  assert.equal(e.digest(), digest);
});

test('camel_case_inputs_reach_the_payload_in_snake_case_with_extras', async (t) => {
  const e = engine(t, engineOptions(t));
  let payload;
  e.addCallbackHook('PreToolUse', null, 'capture', (p) => {
    payload = p;
  });
  await e.preToolUse({ toolName: 'Bash', toolInput: { someKey: 1 }, toolCallId: 'c-9', permissionMode: 'default' });
  assert.equal(payload.tool_name, 'Bash');
  assert.deepEqual(payload.tool_input, { someKey: 1 }, 'tool input values are not renamed');
  assert.equal(payload.tool_use_id, 'c-9');
  assert.equal(payload.permission_mode, 'default');
  assert.equal(payload.session_id, 'node-test');
  assert.equal(payload.hook_event_name, 'PreToolUse');
});

test('extra_input_fields_are_passed_verbatim_and_typed_fields_win', async (t) => {
  const e = engine(t, engineOptions(t));
  let payload;
  e.addCallbackHook('PreToolUse', null, 'capture', (p) => {
    payload = p;
  });
  await e.preToolUse({ toolName: 'Bash', extra: { permission_mode: 'plan', customField: 1, tool_name: 'Other' } });
  assert.equal(payload.permission_mode, 'plan');
  assert.equal(payload.customField, 1, 'extra keys are not renamed');
  assert.equal(payload.tool_name, 'Bash', 'a typed field wins over extra');
  assert.equal(payload.extra, undefined, 'extra is not sent as a field');
  assert.throws(() => e.preToolUseSync({ toolName: 'Bash', extra: 'x' }), (err) => err.status === Status.HL_ERR_INVALID_ARGUMENT && /extra/.test(err.message));
});

test('misspelled_options_are_rejected_naming_the_intended_option', (t) => {
  const base = engineOptions(t);
  assert.throws(
    () => new Engine({ ...base, workspacegated: true }),
    (err) => err.status === Status.HL_ERR_INVALID_ARGUMENT && /unknown option `workspacegated`; did you mean `workspaceGated`\?/.test(err.message),
  );
  assert.throws(
    () => new Engine({ ...base, workspaceGate: true }),
    (err) => err.status === Status.HL_ERR_INVALID_ARGUMENT && /`workspaceGate`; did you mean `workspaceGated`\?/.test(err.message),
  );
});

test('option_errors_name_options_as_the_caller_wrote_them', (t) => {
  const base = engineOptions(t);
  const { sessionId, ...noSession } = base;
  const message = (options) => {
    try {
      new Engine(options).closeSync();
    } catch (err) {
      assert.equal(err.status, Status.HL_ERR_INVALID_ARGUMENT, err.message);
      return err.message;
    }
    assert.fail(`no error for ${JSON.stringify(options)}`);
  };
  // The caller's own key, not its wire form `session_i_d`; the suggestion in camelCase.
  assert.equal(message({ ...noSession, sessionID: sessionId }), 'unknown option `sessionID`; did you mean `sessionId`?');
  assert.equal(
    message({ ...base, transcriptPATH: 'x', fooBar: 1 }),
    'unknown option `transcriptPATH`; did you mean `transcriptPath`? (other unknown options: `fooBar`)',
  );
  assert.equal(message(noSession), 'option `sessionId` is required');
  assert.equal(message({ ...noSession, sessionId: 5 }), 'option `sessionId` must be a string');
  assert.equal(message({ ...noSession, session_id: 5 }), 'option `session_id` must be a string', 'a snake_case key stays as written');
  assert.equal(message({ ...base, workspaceGated: 'yes' }), 'option `workspaceGated` must be a boolean');
  assert.equal(message({ ...base, hooks: {}, hooksToml: '' }), 'at most one hooks source may be given, got hooks and hooksToml');
  assert.equal(message({ ...base, hookSources: [{ hooksFile: 3 }] }), 'option `hookSources[0].hooksFile` must be a string');
  assert.equal(message({ ...base, hookSources: [{}] }), 'option `hookSources[0]` needs one of hooks, hooksToml, hooksFile');
  assert.match(message({ ...base, env: { my_var: 'a\u0000' } }), /^option `env\.my_var`/, 'environment variable names are kept');
  const e = new Engine(base);
  t.after(() => e.closeSync());
  assert.throws(() => e.reload({ ...base, maxOutputBytes: -1 }), /^HooklineError: option `maxOutputBytes` must be a positive integer$/);
});

test('empty_session_id_is_rejected_like_a_missing_one', (t) => {
  const base = engineOptions(t);
  assert.throws(
    () => new Engine({ ...base, sessionId: '' }),
    (err) => err.status === Status.HL_ERR_INVALID_ARGUMENT && /`sessionId`/.test(err.message),
  );
});

test('transcript_path_round_trips_and_reaches_hooks', async (t) => {
  const opts = engineOptions(t);
  const transcript = path.join(opts.workspace, 'transcript.jsonl');
  const e = engine(t, opts);
  assert.equal(e.transcriptPath, null);
  e.setTranscriptPath(transcript);
  assert.equal(e.transcriptPath, transcript);
  let seen;
  e.addCallbackHook('Stop', '', 'capture', (p) => {
    seen = p.transcript_path;
  });
  await e.stop({ lastAssistantMessage: 'done', stopHookActive: false });
  assert.equal(seen, transcript);
  e.setTranscriptPath(null);
  assert.equal(e.transcriptPath, null);
});

test('callback_hook_deny_from_hookline_thread_denies', async (t) => {
  const e = engine(t, engineOptions(t));
  e.addCallbackHook('PreToolUse', 'Bash', 'js-policy', (p) => (p.tool_input.command.includes('rm') ? deny('no rm') : undefined));
  const denied = await e.preToolUse({ toolName: 'Bash', toolInput: { command: 'rm -rf x' } });
  assert.equal(denied.decision, 'deny');
  assert.equal(denied.reason, 'no rm');
  assert.deepEqual(
    denied.hooks.map((h) => [h.kind, h.name, h.exitCode]),
    [['callback', 'js-policy', 2]],
  );
  const fine = await e.preToolUse({ toolName: 'Bash', toolInput: { command: 'ls' } });
  assert.equal(fine.decision, 'continue');
  assert.deepEqual(fine.hooks.map((h) => h.exitCode), [0]);
  const other = await e.preToolUse({ toolName: 'Read', toolInput: { command: 'rm' } });
  assert.deepEqual(other.hooks, [], 'the matcher applies to callback hooks');
});

test('callback_hooks_run_after_commands_and_reply_like_commands', async (t) => {
  const opts = engineOptions(t, { hooks: { UserPromptSubmit: [{ hooks: [{ command: 'echo from-command' }] }] } });
  const e = engine(t, opts);
  e.addCallbackHook('user_prompt_submit', '*', 'ctx', () => ({
    hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'from-callback' },
  }));
  const outcome = await e.userPromptSubmit({ turnId: 't1', prompt: 'hello' });
  assert.equal(outcome.allowPrompt, true);
  assert.deepEqual(outcome.additionalContext, ['from-command', 'from-callback']);
  assert.deepEqual(
    outcome.hooks.map((h) => h.kind),
    ['command', 'callback'],
  );
  e.addCallbackHook('PreToolUse', null, 'ok', () => allow());
  assert.equal((await e.preToolUse({ toolName: 'Bash' })).decision, 'allow');
});

test('callback_hook_exception_is_exit_code_1', async (t) => {
  const errors = [];
  const e = engine(t, engineOptions(t, { onCallbackError: (err, info) => errors.push([err.message, info.name]) }));
  e.addCallbackHook('PreToolUse', null, 'thrower', () => {
    throw new Error('bug in host');
  });
  const outcome = await e.preToolUse({ toolName: 'Bash' });
  assert.equal(outcome.decision, 'continue', 'exit 1 is a warning for PreToolUse, not a decision');
  assert.equal(outcome.hooks[0].exitCode, 1);
  assert.deepEqual(errors, [['bug in host', 'thrower']]);
});

test('sync_run_with_js_callback_hook_completes_on_the_js_thread', (t) => {
  const e = engine(t, engineOptions(t, { hooks: claudePreToolUse(['true']) }));
  let calls = 0;
  e.addCallbackHook('PreToolUse', null, 'sync-cb', () => {
    calls++;
    return deny('sync says no');
  });
  const outcome = e.preToolUseSync({ toolName: 'Bash', toolInput: {} });
  assert.equal(calls, 1);
  assert.equal(outcome.decision, 'deny');
  assert.equal(outcome.reason, 'sync says no');
  assert.deepEqual(
    outcome.hooks.map((h) => h.kind),
    ['command', 'callback'],
  );
});

test('every_event_method_runs_its_event', async (t) => {
  const e = engine(t, engineOptions(t));
  const seen = [];
  for (const ev of [
    'SessionStart', 'SessionEnd', 'SubagentStart', 'SubagentStop', 'UserPromptSubmit', 'PreToolUse',
    'PostToolUse', 'PermissionRequest', 'PreCompact', 'Stop', 'Notification', 'PostToolUseFailure',
  ]) {
    e.addCallbackHook(ev, null, `cb-${ev}`, (p) => {
      seen.push(p.hook_event_name);
    });
  }
  const subagent = { parentSessionId: 'p', childThreadId: 'c', agentName: 'a', displayLabel: 'A', background: false, status: 'running' };
  const inputs = {
    sessionStart: undefined,
    sessionEnd: { turnId: 't', reason: 'completed' },
    subagentStart: subagent,
    subagentStop: { ...subagent, status: 'done' },
    userPromptSubmit: { turnId: 't', prompt: 'p' },
    preToolUse: { toolName: 'Bash' },
    postToolUse: { toolName: 'Bash', toolResponse: { ok: true } },
    permissionRequest: { toolName: 'Bash', permissionRequest: {} },
    preCompact: { trigger: 'auto', mode: 'local', originalMessageCount: 10, compactedMessageCount: 2 },
    stop: { lastAssistantMessage: 'bye', stopHookActive: false },
    notification: { notificationType: 'idle_prompt', title: 't', message: 'm' },
    postToolUseFailure: { toolName: 'Bash', error: 'boom' },
  };
  const outcomes = {};
  for (const [method, input] of Object.entries(inputs)) {
    outcomes[method] = await e[method](input);
    const sync = e[`${method}Sync`](input);
    assert.equal(sync.continue, true);
  }
  assert.deepEqual(seen, [
    'SessionStart', 'SessionStart', 'SessionEnd', 'SessionEnd', 'SubagentStart', 'SubagentStart',
    'SubagentStop', 'SubagentStop', 'UserPromptSubmit', 'UserPromptSubmit', 'PreToolUse', 'PreToolUse',
    'PostToolUse', 'PostToolUse', 'PermissionRequest', 'PermissionRequest', 'PreCompact', 'PreCompact',
    'Stop', 'Stop', 'Notification', 'Notification', 'PostToolUseFailure', 'PostToolUseFailure',
  ]);
  assert.deepEqual(outcomes.sessionStart.additionalContext, []);
  assert.equal(outcomes.permissionRequest.decision, null);
  assert.equal(outcomes.stop.blockReason, null);
  assert.equal(outcomes.postToolUse.blockReason, null);
  assert.equal(outcomes.userPromptSubmit.allowPrompt, true);
});

test('permission_request_decision_is_camel_cased_but_updated_input_is_not', async (t) => {
  const reply = {
    hookSpecificOutput: {
      hookEventName: 'PermissionRequest',
      decision: { behavior: 'allow', updatedInput: { snake_key: 1 } },
    },
  };
  const e = engine(t, engineOptions(t));
  e.addCallbackHook('PermissionRequest', null, 'grant', () => reply);
  const outcome = await e.permissionRequest({ toolName: 'Bash', permissionRequest: { command: 'ls' } });
  assert.equal(outcome.decision.behavior, 'allow');
  assert.equal(outcome.decision.scope, 'once');
  assert.deepEqual(outcome.decision.updatedInput, { snake_key: 1 });
  assert.deepEqual(outcome.decision.permissionUpdates, []);
});

test('user_prompt_submit_exit_2_blocks_the_prompt', async (t) => {
  const e = engine(t, engineOptions(t, { hooks: { UserPromptSubmit: [{ hooks: [{ command: 'echo secret detected >&2; exit 2' }] }] } }));
  const outcome = await e.userPromptSubmit({ turnId: 't', prompt: 'my password is hunter2' });
  assert.equal(outcome.allowPrompt, false);
  assert.equal(outcome.blockReason, 'secret detected');
});

test('session_start_plain_stdout_becomes_additional_context', async (t) => {
  const e = engine(t, engineOptions(t, { hooks: { SessionStart: [{ hooks: [{ command: 'echo project uses pnpm' }] }] } }));
  const outcome = await e.sessionStart();
  assert.deepEqual(outcome.additionalContext, ['project uses pnpm']);
});

test('concurrent_500_async_runs_with_js_callback_hooks_do_not_deadlock', { timeout: 120_000 }, async (t) => {
  const e = engine(t, engineOptions(t));
  let calls = 0;
  e.addCallbackHook('PreToolUse', null, 'parity', (p) => {
    calls++;
    const n = Number(p.tool_use_id);
    return n % 2 === 0 ? deny(`even ${n}`) : { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' } };
  });
  const runs = [];
  for (let i = 0; i < 500; i++) runs.push(e.preToolUse({ toolName: 'Bash', toolInput: { i }, toolCallId: String(i) }));
  const outcomes = await Promise.all(runs);
  assert.equal(calls, 500);
  outcomes.forEach((o, i) => {
    if (i % 2 === 0) {
      assert.equal(o.decision, 'deny');
      assert.equal(o.reason, `even ${i}`);
    } else {
      assert.equal(o.decision, 'allow');
    }
  });
  assert.equal(callbacks.pendingRunCount(), 0);
});

test('callback_hook_may_start_runs_and_change_the_engine_without_deadlock', async (t) => {
  const e = engine(t, engineOptions(t));
  const nested = [];
  e.addCallbackHook('PreToolUse', null, 'reentrant', () => {
    nested.push(e.notification({ notificationType: 'idle_prompt', title: 't', message: 'from callback' }));
    e.setTranscriptPath('transcript.jsonl');
    return allow();
  });
  const outcome = await e.preToolUse({ toolName: 'Bash' });
  assert.equal(outcome.decision, 'allow');
  const inner = await Promise.all(nested);
  assert.equal(inner.length, 1);
  assert.equal(inner[0].continue, true);
});

test('abort_signal_kills_a_sleeping_hook_and_rejects_with_abort_error', async (t) => {
  const opts = engineOptions(t, { hooks: claudePreToolUse(['echo $$ > hook.pid; exec sleep 30']) });
  const e = engine(t, opts);
  const pidFile = path.join(opts.workspace, 'hook.pid');
  const ac = new AbortController();
  const run = e.preToolUse({ toolName: 'Bash' }, { signal: ac.signal });
  const { waitFor, processAlive } = require('./helpers');
  assert.ok(await waitFor(() => fs.existsSync(pidFile) && fs.readFileSync(pidFile, 'utf8').trim() !== '', 10_000), 'hook started');
  const pid = Number(fs.readFileSync(pidFile, 'utf8').trim());
  assert.ok(processAlive(pid));
  const started = Date.now();
  ac.abort(new Error('user pressed escape'));
  await assert.rejects(run, (err) => err.name === 'AbortError' && err.code === 'ABORT_ERR' && err.cause.message === 'user pressed escape');
  const elapsed = Date.now() - started;
  assert.ok(elapsed < 3000, `rejected ${elapsed} ms after abort`);
  assert.ok(await waitFor(() => !processAlive(pid), 2000), 'the hook process died');
  assert.equal(callbacks.pendingRunCount(), 0);
});

test('already_aborted_signal_rejects_without_running', async (t) => {
  const opts = engineOptions(t, { hooks: claudePreToolUse(['touch ran.txt']) });
  const e = engine(t, opts);
  await assert.rejects(e.preToolUse({ toolName: 'Bash' }, { signal: AbortSignal.abort() }), { name: 'AbortError' });
  // Rejected before anything was submitted: no run is pending, so none can
  // start later; a run without a signal afterwards does run the hook.
  assert.equal(callbacks.pendingRunCount(), 0);
  assert.equal(fs.existsSync(path.join(opts.workspace, 'ran.txt')), false);
  await e.preToolUse({ toolName: 'Bash' });
  assert.equal(fs.existsSync(path.join(opts.workspace, 'ran.txt')), true);
});

test('abort_after_completion_is_harmless', async (t) => {
  const e = engine(t, engineOptions(t, { hooks: claudePreToolUse(['echo run >> runs.txt']) }));
  const ac = new AbortController();
  const outcome = await e.preToolUse({ toolName: 'Bash' }, { signal: ac.signal });
  assert.equal(outcome.decision, 'continue');
  ac.abort(); // after completion: must not cancel anything, reject, or break the engine
  assert.equal(ac.signal.aborted, true);
  assert.equal(callbacks.pendingRunCount(), 0);
  const again = await e.preToolUse({ toolName: 'Bash' });
  assert.equal(again.decision, 'continue');
  assert.deepEqual(again.hooks.map((h) => h.exitCode), [0]);
});

test('abort_racing_with_completion_is_consistent', { timeout: 60_000 }, async (t) => {
  // Either the abort won (AbortError: the run was cancelled) or the run had
  // already finished (it resolves with its real outcome) - never a hang, and
  // never a rejection for a run that completed.
  const e = engine(t, engineOptions(t, { hooks: claudePreToolUse(['true']) }));
  let aborted = 0;
  let completed = 0;
  for (let i = 0; i < 200; i++) {
    const ac = new AbortController();
    const run = e.preToolUse({ toolName: 'Bash' }, { signal: ac.signal });
    // Vary where the abort lands: before, during and after the run.
    if (i % 4 === 1) await new Promise((r) => setImmediate(r));
    else if (i % 4 === 2) await new Promise((r) => setTimeout(r, i % 7));
    ac.abort();
    try {
      const outcome = await run;
      assert.equal(outcome.decision, 'continue');
      assert.deepEqual(outcome.hooks.map((h) => h.exitCode), [0]);
      completed++;
    } catch (err) {
      assert.equal(err.name, 'AbortError', String(err));
      aborted++;
    }
  }
  assert.equal(aborted + completed, 200);
  t.diagnostic(`${aborted} aborted, ${completed} completed`);
  assert.equal(callbacks.pendingRunCount(), 0);
});

test('close_with_runs_in_flight_rejects_them_as_closed_and_resolves', { timeout: 30_000 }, async (t) => {
  const opts = engineOptions(t, { hooks: claudePreToolUse(['echo $$ >> started.txt; exec sleep 30']) });
  const e = new Engine(opts);
  e.addCallbackHook('Notification', null, 'slowish', () => undefined);
  const runs = [];
  for (let i = 0; i < 5; i++) runs.push(e.preToolUse({ toolName: 'Bash' }));
  for (let i = 0; i < 20; i++) runs.push(e.notification({ notificationType: 'x', title: 't', message: String(i) }));
  const settled = Promise.allSettled(runs);
  const startedFile = path.join(opts.workspace, 'started.txt');
  const startedCount = () => (fs.existsSync(startedFile) ? fs.readFileSync(startedFile, 'utf8').trim().split('\n').filter(Boolean).length : 0);
  assert.ok(await waitFor(() => startedCount() === 5, 20_000), `all five hooks started (${startedCount()})`);
  const started = Date.now();
  await e.close();
  const results = await settled;
  assert.ok(Date.now() - started < 10_000);
  for (const r of results.slice(0, 5)) {
    assert.equal(r.status, 'rejected');
    assert.ok(r.reason instanceof HooklineError);
    assert.equal(r.reason.code, 'HL_ERR_CLOSED');
    assert.equal(r.reason.status, Status.HL_ERR_CLOSED);
    assert.equal(r.reason.message, 'PreToolUse run interrupted: engine closed');
  }
  for (const r of results.slice(5)) {
    assert.ok(r.status === 'fulfilled' || r.reason.code === 'HL_ERR_CLOSED', String(r.reason));
  }
  assert.equal(callbacks.pendingRunCount(), 0);
});

test('closed_engine_rejects_calls_and_releases_callback_hooks', async (t) => {
  const before = callbacks.handlerCount();
  const e = new Engine(engineOptions(t));
  e.addCallbackHook('Stop', null, 'a', () => {}).addCallbackHook('Stop', null, 'b', () => {});
  e.addCallbackHook('Stop', null, 'a', () => {}); // replaces (and releases) the first 'a'
  assert.equal(callbacks.handlerCount(), before + 2);
  await e.close();
  await e.close(); // idempotent
  assert.equal(e.closed, true);
  assert.equal(callbacks.handlerCount(), before);
  await assert.rejects(e.stop({ lastAssistantMessage: '', stopHookActive: false }), (err) => err.code === 'HL_ERR_CLOSED');
  assert.throws(() => e.digest(), (err) => err.code === 'HL_ERR_CLOSED');
  assert.equal(e.needsApproval, false);
  assert.equal(e.workspaceGated, false);
});

test('close_sync_refuses_while_runs_are_in_flight', async (t) => {
  const e = new Engine(engineOptions(t, { hooks: claudePreToolUse(['sleep 1']) }));
  const run = e.preToolUse({ toolName: 'Bash' });
  assert.throws(() => e.closeSync(), (err) => err instanceof HooklineError && err.code === 'HL_ERR_CLOSED' && /in flight/.test(err.message));
  assert.equal(e.closed, false, 'a refused closeSync leaves the engine open');
  await run;
  e.closeSync();
  assert.equal(e.closed, true);
});

test('failed_callback_hook_registration_leaves_no_js_entry', (t) => {
  const e = engine(t, engineOptions(t));
  const before = callbacks.handlerCount();
  assert.throws(() => e.addCallbackHook('PreToolUse', '(', 'bad-regex', () => {}), (err) => err.status === Status.HL_ERR_INVALID_ARGUMENT);
  assert.throws(() => e.addCallbackHook('PreToolUse', null, ' ', () => {}), (err) => err.status === Status.HL_ERR_INVALID_ARGUMENT);
  assert.equal(callbacks.handlerCount(), before);
});

test('hooks_file_option_is_read', (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, 'settings.json');
  fs.writeFileSync(file, JSON.stringify({ hooks: claudePreToolUse(['./check.sh']) }));
  const e = engine(t, engineOptions(t, { hooksFile: file }));
  assert.deepEqual(e.previews(), [
    { type: 'command', event: 'pre_tool_use', matcher: 'Bash', command: './check.sh', timeoutSeconds: null, pins: [], env: { inherit: true, scrub: [], set: [] } },
  ]);
  assert.throws(() => new Engine(engineOptions(t, { hooksFile: path.join(dir, 'missing.json') })), (err) => err.status === Status.HL_ERR_IO);
});
