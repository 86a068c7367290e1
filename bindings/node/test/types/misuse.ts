// Type-checked by test/types.test.js: misuse that must be rejected (a missing toolName, a wrong decide result).
import { Engine, Registry } from 'hookline';
const e = new Engine({ workspace: '.', sessionId: 's' });
e.preToolUse({ toolInput: {} });
new Registry().onPreToolCallDecide('a', (ctx) => ({ allowed: true }));
