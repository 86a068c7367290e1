// Type-checked by test/types.test.js: typed use of the API that must compile under --strict.
import { Engine, deny } from 'hookline';
import def from 'hookline';
const e = new Engine({ workspace: '.', sessionId: 's' });
void deny; void def.Registry; void e;
