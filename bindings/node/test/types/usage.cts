// Type-checked by test/types.test.js: typed use of the API that must compile under --strict.
import h = require('hookline');
const e = new h.Engine({ workspace: '.', sessionId: 's' });
void e;
