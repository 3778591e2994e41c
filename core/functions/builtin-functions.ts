/**
 * Every built-in scalar function, assembled from the function families.
 */
import type { FunctionTable } from './function-registry.js';
import { stringFunctions } from './string-functions.js';

/** Name to binder for all built-in scalar functions. */
export const builtinFunctions: FunctionTable = {
  ...stringFunctions,
};
