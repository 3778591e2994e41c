/** Writes docs/functions.md from the function tables (`npm run docs:functions`). */
import { writeFileSync } from 'node:fs';
import { functionReference } from './function-reference.js';

writeFileSync(new URL('../functions.md', import.meta.url), functionReference());
