/**
 * A bound expression: an expression resolved against an input schema and compiled to a closure.
 * Binding happens once per query; evaluation runs per row with no lookups by name, or per column
 * batch through the expression's kernel (kernels/kernel.ts).
 */
import type { DataType, FieldMetadata } from '../types/data-types.js';
import type { Row } from '../types/row.js';
import type { Kernel } from './kernels/kernel.js';

/** Computes an expression's value for one input row; null is SQL NULL. */
export type Evaluator = (row: Row) => unknown;

/** The result of binding: the compiled evaluator and what it produces. */
export interface BoundExpression {
  readonly dataType: DataType;
  readonly nullable: boolean;
  readonly eval: Evaluator;
  /** The same computation over a column batch; absent when only the row evaluator exists (see kernelOf). */
  readonly kernel?: Kernel;
  /** Carried through column references and aliases (e.g. the watermark delay of an event-time column). */
  readonly metadata?: FieldMetadata;
  /**
   * Set on a cast of binary to string: the kernel of the UTF-8 bytes it decodes, so a consumer that
   * reads UTF-8 itself (the columnar `from_json`) fuses the cast and decodes no string.
   */
  readonly utf8Bytes?: Kernel;
}
