/**
 * Every built-in scalar function, assembled from the function families.
 */
import { collectionFunctions } from './collection-functions.js';
import { conditionalFunctions } from './conditional-functions.js';
import { dateArithmeticFunctions } from './date-arithmetic-functions.js';
import { hashFunctions } from './hash-functions.js';
import { datetimeFunctions } from './datetime-functions.js';
import type { FunctionTable } from '../expr/function-table.js';
import { jsonFunctions } from './json-functions.js';
import { mathFunctions } from './math-functions.js';
import { patternFunctions } from './pattern-functions.js';
import { stringFormatFunctions } from './string-format-functions.js';
import { stringFunctions } from './string-functions.js';
import { stringSearchFunctions } from './string-search-functions.js';
import { windowFunctions } from './window-functions.js';

/** Name to binder for all built-in scalar functions. */
export const builtinFunctions: FunctionTable = {
  ...stringFunctions,
  ...stringFormatFunctions,
  ...stringSearchFunctions,
  ...dateArithmeticFunctions,
  ...collectionFunctions,
  ...hashFunctions,
  ...mathFunctions,
  ...datetimeFunctions,
  ...conditionalFunctions,
  ...jsonFunctions,
  ...windowFunctions,
  ...patternFunctions,
};
