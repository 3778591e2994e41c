/**
 * String functions: lower, upper, concat, substring, length, split, trim, regexp_extract.
 * Null in gives null out, except where noted.
 */
import { Column, columnOrName } from '../api/column.js';
import { AnalysisError } from '../errors.js';
import type { BoundExpression } from '../expr/bound-expression.js';
import { IntegerType, StringType, typeName } from '../types/data-types.js';
import { type FunctionTable, nullIntolerant } from './function-registry.js';

/** Lower-cases a string column. */
export function lower(c: Column | string): Column {
  return call('lower', c);
}

/** Upper-cases a string column. */
export function upper(c: Column | string): Column {
  return call('upper', c);
}

/** The number of characters in a string. */
export function length(c: Column | string): Column {
  return call('length', c);
}

function call(name: string, ...args: (Column | string)[]): Column {
  return new Column({ kind: 'call', name, args: args.map(columnOrName) });
}

/** Binders of the string functions. */
export const stringFunctions: FunctionTable = {
  lower: (args) => stringToString('lower', args, (s) => s.toLowerCase()),
  upper: (args) => stringToString('upper', args, (s) => s.toUpperCase()),
  length: (args) => {
    requireString('length', args[0]);
    return { dataType: IntegerType, nullable: args[0].nullable, eval: nullIntolerant(args, (s) => [...(s as string)].length) };
  },
};

function stringToString(name: string, args: readonly BoundExpression[], fn: (s: string) => string): BoundExpression {
  requireString(name, args[0]);
  return { dataType: StringType, nullable: args[0].nullable, eval: nullIntolerant(args, (s) => fn(s as string)) };
}

function requireString(name: string, arg: BoundExpression | undefined): void {
  if (!arg || (arg.dataType.kind !== 'string' && arg.dataType.kind !== 'null')) {
    throw new AnalysisError(`${name}() needs a string argument, got ${arg ? typeName(arg.dataType) : 'none'}.`);
  }
}

