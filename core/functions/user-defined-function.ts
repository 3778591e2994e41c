/**
 * User-defined functions: a program's function of column values, called once per row, as Spark's
 * UDFs are. The binder checks nothing about the arguments (the function takes what it is given)
 * and every result against the declared return type.
 *
 * - Arguments are passed in the form `collect()` returns values (structs as objects keyed by field
 *   name, timestamps as microseconds since the epoch, dates as days); a null argument is passed as
 *   `null`, and the function decides what it means.
 * - The result must be of the return type, in the form `createDataFrame` takes (a `Date` is
 *   accepted for a timestamp or a date); `undefined` is null.
 * - A function that throws, returns a Promise or returns a value of another type fails the row with
 *   a UserFunctionError naming the function and the input row; the query fails with it (a stream
 *   does not commit the batch, so nothing is lost and the batch runs again after a fix).
 */
import { InvalidOptionError, UserFunctionError } from '../errors.js';
import type { BoundExpression } from '../expr/bound-expression.js';
import type { FunctionBinder } from '../expr/function-table.js';
import { type DataType, field, struct, typeName } from '../types/data-types.js';
import { rowInputConverter } from '../types/row-input.js';
import { type Row, toExternal, toRowObject } from '../types/row.js';

/** The function a UDF calls: column values in, one value out. */
export type UserFunction = (...values: never[]) => unknown;

/** A binder that calls `fn` on each row's argument values and checks that it returns a `returnType`. */
export function userFunctionBinder(
  name: string,
  fn: UserFunction,
  returnType: DataType,
): FunctionBinder {
  const result = rowInputConverter(struct([field('result', returnType)]), `udf '${name}'`);
  return (args, _call, scope) => {
    const evals = args.map((a) => a.eval);
    const types = args.map((a) => a.dataType);
    const call = fn as (...values: unknown[]) => unknown;
    const fail = (row: Row, problem: string, cause?: unknown): never => {
      const input = toRowObject(row, scope.schema);
      throw new UserFunctionError(
        `User-defined function '${name}' ${problem} on the row ${describe(input)}. Fix the function (a null argument is passed as null), or filter such rows out before calling it.`,
        name,
        input,
        cause === undefined ? undefined : { cause },
      );
    };
    const bound: BoundExpression = {
      dataType: returnType,
      nullable: true,
      eval: (row) => {
        const values = evals.map((e, i) => toExternal(e(row), types[i]));
        let value: unknown;
        try {
          value = call(...values);
        } catch (error) {
          return fail(row, `threw ${describe(String((error as Error)?.message ?? error))}`, error);
        }
        if (value instanceof Promise) {
          return fail(row, 'returned a Promise; UDFs must be synchronous');
        }
        try {
          return result({ result: value ?? null }, 0)[0];
        } catch (error) {
          if (!(error instanceof InvalidOptionError)) throw error;
          return fail(
            row,
            `returned ${describe(value)}, which is not its return type ${typeName(returnType)},`,
            error,
          );
        }
      },
    };
    return bound;
  };
}

function describe(value: unknown): string {
  try {
    return JSON.stringify(value, (_k, v: unknown) =>
      v instanceof Map ? Object.fromEntries(v) : v,
    );
  } catch {
    return String(value);
  }
}
