/**
 * Hash functions: md5 and sha2, as lower-case hex strings of the digest of a binary value (strings
 * and other text-castable values are hashed as their UTF-8 bytes, as in Spark). A null argument
 * gives null; `sha2`'s bit length is a constant, 224, 256 (also 0), 384 or 512 — any other is
 * null for every row, as in Spark.
 *
 * These are the binders; the DataFrame API builds the calls in core/api/hash-functions.ts.
 */
import { createHash } from 'node:crypto';
import type { BoundExpression } from '../expr/bound-expression.js';
import type { FunctionCall } from '../expr/expression.js';
import type { FunctionTable } from '../expr/function-table.js';
import { BinaryType, StringType } from '../types/data-types.js';
import { argumentAs, constantInteger, requireArity } from './function-arguments.js';
import { nullIntolerant } from './function-registry.js';

/** Spark's sha2 bit lengths and the digest each names. */
const SHA2_DIGESTS: ReadonlyMap<number, string> = new Map([
  [0, 'sha256'],
  [224, 'sha224'],
  [256, 'sha256'],
  [384, 'sha384'],
  [512, 'sha512'],
]);

/** Binders of md5 and sha2. */
export const hashFunctions: FunctionTable = {
  md5: (args) => {
    requireArity('md5', args, 1);
    return digest(bytesArgument('md5', args), 'md5');
  },
  sha2: (args, call: FunctionCall) => {
    requireArity('sha2', args, 2);
    const algorithm = SHA2_DIGESTS.get(constantInteger('sha2', call, 1, 'bit length'));
    const bytes = bytesArgument('sha2', args);
    return algorithm
      ? digest(bytes, algorithm)
      : { dataType: StringType, nullable: true, eval: () => null };
  },
};

function bytesArgument(name: string, args: readonly BoundExpression[]): BoundExpression {
  return args[0].dataType.kind === 'binary' ? args[0] : coerceToBinary(name, args);
}

function coerceToBinary(name: string, args: readonly BoundExpression[]): BoundExpression {
  const text = argumentAs(name, args, 0, StringType);
  const encoder = new TextEncoder();
  return {
    dataType: BinaryType,
    nullable: text.nullable,
    eval: nullIntolerant([text], (s) => encoder.encode(s as string)),
  };
}

function digest(bytes: BoundExpression, algorithm: string): BoundExpression {
  return {
    dataType: StringType,
    nullable: bytes.nullable,
    eval: nullIntolerant([bytes], (b) =>
      createHash(algorithm)
        .update(b as Uint8Array)
        .digest('hex'),
    ),
  };
}
