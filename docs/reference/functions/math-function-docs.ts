/** The math and hash functions of the reference: core/functions/math-functions.ts and hash-functions.ts. */
import { type FunctionDocs, NULL_IN_NULL_OUT } from './function-doc.js';

/** Math and hash functions. */
export const MATH_FUNCTIONS: FunctionDocs = {
  abs: {
    signatures: ['abs(x numeric) → the type of x'],
    column: 'abs',
    does: 'The absolute value.',
    nulls: NULL_IN_NULL_OUT,
    example: { sql: 'abs(-3)', result: '3' },
  },
  round: {
    signatures: ['round(x numeric[, scale INT]) → the type of x'],
    column: 'round',
    does: 'The value rounded to `scale` decimal places (default 0), halves away from zero.',
    nulls: NULL_IN_NULL_OUT,
    example: { sql: 'round(-2.5)', result: '-3.0' },
  },
  floor: {
    signatures: ['floor(x numeric) → BIGINT'],
    column: 'floor',
    does: 'The largest integer not greater than the value.',
    nulls: NULL_IN_NULL_OUT,
    example: { sql: 'floor(-1.5)', result: '-2' },
  },
  ceil: {
    aliases: ['ceiling'],
    signatures: ['ceil(x numeric) → BIGINT'],
    column: 'ceil',
    does: 'The smallest integer not less than the value.',
    nulls: NULL_IN_NULL_OUT,
    example: { sql: 'ceil(1.2)', result: '2' },
  },
  sqrt: {
    signatures: ['sqrt(x DOUBLE) → DOUBLE'],
    column: 'sqrt',
    does: 'The square root; NaN for a negative value.',
    nulls: NULL_IN_NULL_OUT,
    example: { sql: 'sqrt(-1)', result: 'NaN' },
  },
  pow: {
    aliases: ['power'],
    signatures: ['pow(base DOUBLE, exponent DOUBLE) → DOUBLE'],
    column: 'pow',
    does: 'The base raised to the exponent.',
    nulls: NULL_IN_NULL_OUT,
    example: { sql: 'pow(2, 10)', result: '1024.0' },
  },
  md5: {
    signatures: ['md5(value STRING | BINARY) → STRING'],
    column: 'md5',
    does: 'The MD5 digest of the UTF-8 bytes, in hex.',
    nulls: NULL_IN_NULL_OUT,
    example: { sql: "md5('Spark')", result: '8cde774d6f7333752ed72cacddb05126' },
  },
  sha2: {
    signatures: ['sha2(value STRING | BINARY, bitLength INT) → STRING'],
    column: 'sha2',
    does: 'The SHA-2 digest (bit length 224, 256, 384 or 512; 0 is 256) of the UTF-8 bytes, in hex.',
    nulls: 'Null when the value is null or the bit length is not one of those.',
    example: {
      sql: "sha2('Spark', 256)",
      result: '529bc3b07127ecb7e53a4dcf1991d9152c24537d919178022b2c42657f79a26b',
    },
  },
};
