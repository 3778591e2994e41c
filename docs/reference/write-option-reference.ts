/** Writes docs/options.md from the option registries (`npm run docs:options`). */
import { writeFileSync } from 'node:fs';
import { optionReference } from './option-reference.js';

writeFileSync(new URL('../options.md', import.meta.url), optionReference());
