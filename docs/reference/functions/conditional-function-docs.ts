/** The conditional functions of the reference: core/functions/conditional-functions.ts. */
import type { FunctionDocs } from './function-doc.js';

const SKIPS_NULLS = 'Nulls are skipped; null only when every argument is null.';

/** Conditional functions. */
export const CONDITIONAL_FUNCTIONS: FunctionDocs = {
  coalesce: {
    signatures: ['coalesce(e1, e2, ...) → their common type'],
    column: 'coalesce',
    does: 'The first argument that is not null.',
    nulls: SKIPS_NULLS,
    example: { sql: 'coalesce(NULL, 1, 2)', result: '1' },
  },
  nvl: {
    signatures: ['nvl(value, replacement) → their common type'],
    column: 'nvl',
    does: '`replacement` when `value` is null, else `value`.',
    nulls: 'Null when both are null.',
    example: { sql: "nvl(NULL, 'x')", result: 'x' },
  },
  ifnull: {
    signatures: ['ifnull(value, replacement) → their common type'],
    column: 'ifnull',
    does: 'As `nvl`.',
    nulls: 'Null when both are null.',
    example: { sql: "ifnull('a', 'x')", result: 'a' },
  },
  nullif: {
    signatures: ['nullif(a, b) → the type of a'],
    column: 'nullif',
    does: 'Null when `a = b`, else `a`.',
    nulls: 'Null when `a` is null; `a` when `b` is null.',
    example: { sql: 'nullif(2, 2)', result: 'NULL' },
  },
  greatest: {
    signatures: ['greatest(e1, e2, ...) → their common type'],
    column: 'greatest',
    does: 'The largest argument (NaN is larger than any other double).',
    nulls: SKIPS_NULLS,
    example: { sql: 'greatest(1, NULL, 3)', result: '3' },
  },
  least: {
    signatures: ['least(e1, e2, ...) → their common type'],
    column: 'least',
    does: 'The smallest argument.',
    nulls: SKIPS_NULLS,
    example: { sql: 'least(1, NULL, 3)', result: '1' },
  },
};
