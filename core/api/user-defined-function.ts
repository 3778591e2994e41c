/**
 * User-defined functions in the DataFrame API and in SQL: `udf(fn, returnType)` makes a column
 * function; `session.udf.register(name, fn, returnType)` makes one that SQL text of that session can
 * call by name too. core/functions/user-defined-function.ts states how values go in and out.
 *
 * A UDF's call carries its name, not its code, into the plan: a streaming query's plan fingerprint
 * names the function, so a restart may change what the function does (as in Spark), but not which
 * function a stateful operator's key or aggregate calls.
 */
import { InvalidOptionError } from '../errors.js';
import type { Expression } from '../expr/expression.js';
import { type UserFunction, userFunctionBinder } from '../functions/user-defined-function.js';
import type { DataType } from '../types/data-types.js';
import { parseTypeName } from '../types/type-names.js';
import { Column, columnOrName } from './column.js';
import type { FunctionLookup } from './sql-front-end.js';

export type { UserFunction } from '../functions/user-defined-function.js';

/** A column function made by `udf()` or `session.udf.register()`: call it on columns or column names. */
export interface UserDefinedFunction {
  (...columns: (Column | string)[]): Column;
  /** The name its calls are shown with (`name(args)`), and SQL calls it by when registered. */
  readonly functionName: string;
  readonly returnType: DataType;
}

/**
 * A column function calling `fn` once per row: `const shout = udf((s) => s?.toUpperCase() ?? null,
 * 'string'); df.select(shout('name'))`. `returnType` is a DataType or a type name (`'int'`,
 * `'array<string>'`). Its calls are named after the function's own name (`fn.name`), or `UDF`.
 */
export function udf(fn: UserFunction, returnType: DataType | string): UserDefinedFunction {
  return makeUserFunction(fn.name || 'UDF', fn, returnType);
}

/** `session.udf`: the session's user-defined functions, which its SQL can call by name. */
export class UDFRegistration {
  /** By lowercase name: SQL function names are case-insensitive, as in Spark. */
  private readonly functions = new Map<string, UserDefinedFunction>();

  /**
   * Registers `fn` under `name` for this session's SQL (`session.sql`, `selectExpr`,
   * `filter(text)`), replacing a function of that name (a built-in too, as in Spark), and returns it
   * as a column function for the DataFrame API.
   */
  register(name: string, fn: UserFunction, returnType: DataType | string): UserDefinedFunction {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
      throw new InvalidOptionError(
        `Invalid function name '${name}': use letters, digits and underscores, not starting with a digit.`,
      );
    }
    const registered = makeUserFunction(name, fn, returnType);
    this.functions.set(name.toLowerCase(), registered);
    return registered;
  }

  /** The lookup SQL parsing uses. */
  get lookup(): FunctionLookup {
    return {
      call: (name, args) => this.functions.get(name.toLowerCase())?.(...args.map(asColumn)).expr,
      names: () => [...this.functions.values()].map((f) => f.functionName),
    };
  }
}

function makeUserFunction(
  name: string,
  fn: UserFunction,
  returnType: DataType | string,
): UserDefinedFunction {
  if (typeof fn !== 'function') {
    throw new InvalidOptionError(
      `udf '${name}' needs a function of the column values, got ${typeof fn}.`,
    );
  }
  const type = typeof returnType === 'string' ? parseTypeName(returnType) : returnType;
  const binder = userFunctionBinder(name, fn, type);
  const call = (...columns: (Column | string)[]): Column =>
    new Column({ kind: 'call', name, args: columns.map(columnOrName), binder });
  return Object.assign(call, { functionName: name, returnType: type });
}

function asColumn(e: Expression): Column {
  return new Column(e);
}
