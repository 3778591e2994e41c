/**
 * What the binder needs to know about functions: a table from name to binder. The expression layer
 * defines the contract and core/functions implements the built-in families; whoever builds a scope
 * (the plan and the physical operators) hands the binder the table, so expressions never depend on
 * the functions they call.
 */
import type { BoundExpression } from './bound-expression.js';
import type { FunctionCall } from './expression.js';
import type { Scope } from './scope.js';

/**
 * Binds one call: given its already-bound arguments, returns the compiled function. `scope` is
 * what the call is bound in (a user-defined function names the input row's columns in its errors).
 * Throws an AnalysisError naming the function when argument types are wrong.
 */
export type FunctionBinder = (
  args: readonly BoundExpression[],
  call: FunctionCall,
  scope: Scope,
) => BoundExpression;

/** A family of functions: name to binder. */
export type FunctionTable = Readonly<Record<string, FunctionBinder>>;
