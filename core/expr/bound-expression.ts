/**
 * A bound expression: an expression resolved against an input schema and compiled to a closure.
 * Binding happens once per query; evaluation runs per row with no lookups by name.
 */
import type { DataType, FieldMetadata } from '../types/data-types.js';
import type { Row } from '../types/row.js';

/** Computes an expression's value for one input row; null is SQL NULL. */
export type Evaluator = (row: Row) => unknown;

/** The result of binding: the compiled evaluator and what it produces. */
export interface BoundExpression {
  readonly dataType: DataType;
  readonly nullable: boolean;
  readonly eval: Evaluator;
  /** Carried through column references and aliases (e.g. the watermark delay of an event-time column). */
  readonly metadata?: FieldMetadata;
}
