// Type-checked by test/types.test.js: misspelled option and input keys are compile-time errors
// (no index signatures where the key set is known). Each `@ts-expect-error` must find an error:
// an unused one is itself an error, so this file fails to compile if a typo is ever accepted.
import { Engine } from 'hookline';
// @ts-expect-error `workspacegated` is not an option (workspaceGated)
new Engine({ workspace: '.', sessionId: 's', workspacegated: true });
// @ts-expect-error `workspaceGate` is not an option (workspaceGated)
new Engine({ workspace: '.', sessionId: 's', workspaceGate: true });
// @ts-expect-error snake_case spellings are not part of the typed options
new Engine({ workspace: '.', sessionId: 's', workspace_gated: true });
// @ts-expect-error `openai` is not a dialect (codex)
new Engine({ workspace: '.', sessionId: 's', dialect: 'openai' });
const e = new Engine({ workspace: '.', sessionId: 's', workspaceGated: true });
// @ts-expect-error `toolname` is not an input field (toolName)
e.preToolUse({ toolname: 'Bash' });
// @ts-expect-error `prompts` is not an input field (prompt)
e.userPromptSubmit({ turnId: 't', prompts: 'x' });
// @ts-expect-error `extra` holds JSON values only
e.preToolUse({ toolName: 'Bash', extra: { permission_mode: () => 1 } });
// Pass-through fields go in `extra`.
e.preToolUse({ toolName: 'Bash', extra: { permission_mode: 'plan' } });
e.reload({ workspace: '.', sessionId: 's', workspaceGated: false });
// @ts-expect-error reload takes the same options, typos included
e.reload({ workspace: '.', sessionId: 's', workspaceGate: false });
