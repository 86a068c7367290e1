// Type-checked by test/types.test.js: typed use of the API that must compile under --strict.
import hookline, { Engine, Registry, deny, allow, replyJson, HooklineError, AbortError, Status, HookEvent, PreToolUseOutcome, GateOutcome, CursorFields, Span } from 'hookline';
async function main() {
  const e = new Engine({ workspace: '.', sessionId: 's', workspaceGated: true, hooks: { PreToolUse: [] }, maxOutputBytes: 10 });
  const sources = new Engine({ workspace: '.', sessionId: 's', trigger: 'clear',
    hookSources: [{ hooksFile: 'a.json', trusted: true }, { hooks: { Stop: [] }, pluginRoot: '/p', dialect: 'codex' }] });
  const codex = new Engine({ workspace: '.', sessionId: 's', hooksFile: '.codex/hooks.json', dialect: 'codex' });
  codex.previews()[0].dialect === 'codex';
  (await codex.subagentStart({ parentSessionId: 'p', childThreadId: 'c', agentName: 'a', displayLabel: 'A', background: false, status: 's' })).dialectFields?.codex?.['additionalContext'];
  const named = await sources.runNamed('PostCompact', { matcherValue: 'auto' });
  named.hooks[0]?.failure; named.hooks[0]?.statusMessage;
  sources.runNamedSync('Setup').messages;
  const gemini = new Engine({ workspace: '.', sessionId: 's', dialect: 'gemini', hooks: { hooks: {} },
    hookSources: [{ hooksFile: '.gemini/settings.json', dialect: 'gemini' }] });
  const model = await gemini.runNamed('BeforeModel', { llmRequest: {} });
  model.dialectFields?.gemini?.toolConfig?.allowedFunctionNames.join(',');
  const tail: string | undefined = model.dialectFields?.gemini?.tailToolCallRequest?.name;
  const replaced: boolean | undefined = (await gemini.postToolUse({ toolName: 'x', toolResponse: null })).blockReplacesResult;
  gemini.previews()[0].timeoutMs?.toFixed();
  void tail; void replaced;
  (await sources.sessionStart()).env?.['K'];
  const cursor = new Engine({ workspace: '.', sessionId: 's', hooksFile: '.cursor/hooks.json', dialect: 'cursor',
    hookSources: [{ hooksFile: '/etc/cursor/hooks.json', dialect: 'cursor', trusted: true }] });
  const gate = await cursor.runNamed<GateOutcome>('beforeReadFile', { filePath: '/p/.env' });
  const fields: CursorFields | undefined = gate.dialectFields?.cursor;
  fields?.agent_message?.trim(); fields?.pluginPaths?.length; gate.decision; gate.hooks[0]?.failure === 'no_output';
  cursor.previews()[0].dialect;
  const o: PreToolUseOutcome = await e.preToolUse({ toolName: 'Bash', toolInput: { command: 'ls' }, toolCallId: 'x' }, { signal: AbortSignal.timeout(1000) });
  const d: 'continue' | 'allow' | 'deny' | 'ask' | 'defer' = o.decision;
  const forked = new Engine({ workspace: '.', sessionId: 's', trigger: 'fork', stopHookBlockCap: 0 });
  forked.configWarnings()[0]?.path.toUpperCase();
  (await forked.subagentStart({ parentSessionId: 'p', childThreadId: 'c', agentName: 'a', agentType: 'Explore', displayLabel: 'A', background: false, status: 'ok' })).additionalContext?.length;
  (await forked.stop({ lastAssistantMessage: 'x', stopHookActive: false })).additionalContext?.length;
  o.hooks[0].exitCode?.toFixed();
  const s = e.sessionStartSync();
  s.additionalContext.map((x) => x.toUpperCase());
  e.addCallbackHook('PreToolUse', null, 'n', (p) => (p.tool_name === 'x' ? deny('no') : { hookSpecificOutput: { hookEventName: 'PreToolUse' } }));
  e.addCallbackHook(5, '*', 'n', () => allow());
  const pr = await e.permissionRequest({ toolName: 'Bash', permissionRequest: {} });
  pr.decision?.scope;
  e.approve({ persist: true });
  const b: boolean = e.needsApproval && e.workspaceGated;
  e.previews()[0].timeoutSeconds;
  const copilot = new Engine({ workspace: '.', sessionId: 's', hooksFile: '.github/hooks/guard.json', dialect: 'copilot',
    hookSources: [{ hooksFile: '.claude/settings.json', dialect: 'vscode' }] });
  const post = await copilot.postToolUse({ toolName: 'bash', toolResponse: 'x' });
  const text: string | undefined = post.dialectFields?.copilot?.modifiedResult?.textResultForLlm;
  copilot.previews()[0].argv?.join(' '); copilot.previews()[0].dialect;
  void text;
  e.setModelHandler(async (req, { signal }) => ({ ok: req.type === 'prompt' && !signal.aborted, reason: req.prompt }))
   .setMcpHandler((req) => (req.server === 's' ? 'text' : { text: req.tool, isError: true }))
   .setModelHandler(null);
  const report = (await e.stop({ lastAssistantMessage: '', stopHookActive: false })).hooks[0];
  const hookName: string | undefined = report?.url ?? report?.prompt ?? report?.server;
  void hookName;
  await e.close();
  const r = new Registry({ onCallbackError: (err, info) => info.kind });
  r.onPreToolCallDecide('a', (ctx) => ({ allow: ctx.tool_name !== 'x', message: '', modified_args: { a: 1 } }))
   .onTransformToolInput('t', (ctx) => ctx.tool_args)
   .onPreTurn('p', (ctx) => ctx.turn_number > 1)
   .onPostTurn('q', (ctx) => { ctx.response_text; })
   .onStop('s', (ctx) => (ctx.continuation_count < 3 ? { decision: 'continue', reason: ctx.response_text } : undefined));
  const res = r.run('pre_tool_call_decide', { name: 'Bash', args: {} });
  res.errors[0]?.name;
  r.run('pre_turn', { prompt: 'x', turn_number: 1 });
  r.entries()[0].point;
  r.close();
  try { } catch (err) { if (err instanceof HooklineError) err.code; if (err instanceof AbortError) err.cause; }
  hookline.version(); Status.HL_OK; HookEvent.Stop; replyJson(null);
  void d; void b;
}
main();

// Tracing: spans to a handler, the trace context of each run.
{
  const traced = new Engine({ workspace: '/tmp', sessionId: 's' });
  traced.setTraceHandler((span: Span) => {
    const ns: bigint = span.endUnixNano - span.startUnixNano;
    const parent: string | null = span.parentSpanId;
    const level: 'run' | 'hook' = span.level;
    void [ns, parent, level, span.attributes['hook.exit_code']];
  });
  traced.setTraceContext(() => ({ traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' }));
  traced.setTraceHandler(null).setTraceContext(null);
}
