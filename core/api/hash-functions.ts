/**
 * The hash functions of the DataFrame API: md5, sha2. Each builds a call expression;
 * core/functions/hash-functions.ts binds and evaluates it.
 */
import { Column, columnOrName } from './column.js';
import { toLiteral } from './literal.js';

/** The MD5 digest of a binary or string value, as 32 hex digits. */
export function md5(c: Column | string): Column {
  return new Column({ kind: 'call', name: 'md5', args: [columnOrName(c)] });
}

/** The SHA-2 digest (`numBits` 224, 256, 384, 512, or 0 for 256) as hex; other lengths give null. */
export function sha2(c: Column | string, numBits: number): Column {
  return new Column({ kind: 'call', name: 'sha2', args: [columnOrName(c), toLiteral(numBits)] });
}
