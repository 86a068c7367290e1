// A tiny agent loop using hookline from Node: shell hooks from a Claude Code
// style config behind the workspace approval gate, a JS callback hook, an
// in-process registry, and cancellation with an AbortSignal.
//
//   node examples/agent.mjs        (after `cargo build --release` at the repository root)

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Engine, Registry, deny } from '../index.mjs';

const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'hookline-agent-'));
const trustStore = path.join(workspace, '.trust.json'); // keep the demo out of ~/.config

const hooks = {
  SessionStart: [{ hooks: [{ type: 'command', command: 'echo "This project uses pnpm, not npm."' }] }],
  UserPromptSubmit: [
    { hooks: [{ type: 'command', command: 'grep -qi "password" && { echo "prompt contains a secret" >&2; exit 2; } || exit 0' }] },
  ],
  PreToolUse: [
    {
      matcher: 'Bash',
      hooks: [
        // Deny destructive commands (exit 2: stderr is the reason).
        { type: 'command', command: 'grep -q "rm -rf" && { echo "destructive command blocked" >&2; exit 2; } || exit 0', timeout: 10 },
        // Rewrite npm to pnpm (updatedInput is what later hooks and the tool see).
        {
          type: 'command',
          command:
            `node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const p=JSON.parse(s);` +
            `const c=p.tool_input.command;if(c.startsWith("npm ")){console.log(JSON.stringify({hookSpecificOutput:` +
            `{hookEventName:"PreToolUse",updatedInput:{...p.tool_input,command:"p"+c}}}))}})'`,
          timeout: 10,
        },
      ],
    },
    { matcher: 'Slow', hooks: [{ type: 'command', command: 'sleep 30' }] },
  ],
  Stop: [{ hooks: [{ type: 'command', command: 'echo \'{"decision":"block","reason":"tests have not been run yet"}\'' }] }],
};

const engine = new Engine({ workspace, sessionId: 'demo-session', workspaceGated: true, trustStore, hooks });

// The gate: nothing runs until the user approves this exact command set.
console.log(`workspace hooks need approval: ${engine.needsApproval} (digest ${engine.digest().slice(0, 16)}…)`);
for (const p of engine.previews()) console.log(`  ${p.event} [${p.matcher ?? '*'}] ${p.command.slice(0, 60)}`);
engine.approve({ persist: false });

// A host-side policy as a callback hook: same payload and reply as a command.
engine.addCallbackHook('PreToolUse', 'Write|Edit', 'protect-lockfiles', (payload) =>
  /lock/.test(payload.tool_input?.path ?? '') ? deny('lockfiles are managed by pnpm') : undefined,
);

// In-process registry: transforms and decide callbacks.
const registry = new Registry()
  .onTransformToolInput('default-timeout', (ctx) => ({ timeout_ms: 120000, ...ctx.tool_args }))
  .onPreToolCallDecide('no-network', (ctx) =>
    /^(curl|wget) /.test(ctx.tool_args.command ?? '') ? { allow: false, message: 'network access is disabled' } : undefined,
  );

const start = await engine.sessionStart();
console.log('SessionStart context:', start.additionalContext);

const prompt = await engine.userPromptSubmit({ turnId: 't1', prompt: 'my password is hunter2' });
console.log(`UserPromptSubmit: allowed=${prompt.allowPrompt} (${prompt.blockReason})`);

for (const [toolName, toolInput] of [
  ['Bash', { command: 'rm -rf /' }],
  ['Bash', { command: 'npm install' }],
  ['Bash', { command: 'curl https://example.com' }],
  ['Edit', { path: 'pnpm-lock.yaml' }],
  ['Read', { path: 'README.md' }],
]) {
  const transformed = registry.run('transform_tool_input', { tool_name: toolName, tool_args: toolInput });
  const decided = registry.run('pre_tool_call_decide', { tool_name: toolName, tool_args: transformed.tool_args });
  const outcome = await engine.preToolUse({ toolName, toolInput, toolCallId: `call-${toolName}` });
  const input = outcome.updatedInput ?? toolInput;
  console.log(
    `PreToolUse ${toolName} ${JSON.stringify(toolInput)} → ${outcome.decision}` +
      (outcome.reason ? ` (${outcome.reason})` : '') +
      (outcome.updatedInput ? ` runs ${JSON.stringify(input)}` : '') +
      ` | registry: ${decided.allow ? 'allow' : `deny (${decided.message})`}`,
  );
}

// Cancelling a run kills its hook processes.
const controller = new AbortController();
setTimeout(() => controller.abort(), 300);
try {
  await engine.preToolUse({ toolName: 'Slow' }, { signal: controller.signal });
} catch (err) {
  console.log(`Slow hook: ${err.name}`);
}

const stop = await engine.stop({ lastAssistantMessage: 'All done!', stopHookActive: false });
console.log(`Stop: block=${stop.blockReason}`);
await engine.sessionEnd({ turnId: 't1', reason: 'completed' });

registry.close();
await engine.close();
fs.rmSync(workspace, { recursive: true, force: true });
