/**
 * Every built-in scalar function, assembled from the function families.
 */
import { conditionalFunctions } from './conditional-functions.js';
import { datetimeFunctions } from './datetime-functions.js';
import type { FunctionTable } from '../expr/function-table.js';
import { jsonFunctions } from './json-functions.js';
import { mathFunctions } from './math-functions.js';
import { patternFunctions } from './pattern-functions.js';
import { stringFunctions } from './string-functions.js';
import { windowFunctions } from './window-functions.js';

/** Name to binder for all built-in scalar functions. */
export const builtinFunctions: FunctionTable = {
  ...stringFunctions,
  ...mathFunctions,
  ...datetimeFunctions,
  ...conditionalFunctions,
  ...jsonFunctions,
  ...windowFunctions,
  ...patternFunctions,
};
