/**
 * How a reference names a field of a struct (`e.ts`): by its name, exactly or case-insensitively,
 * as Spark resolves names by default. The binder and the planner's passes over field paths resolve
 * fields the same way, so both mean the same field.
 */
import type { StructType } from '../types/data-types.js';

/** The position of the first field of `struct` that `name` names, or -1 when none does. */
export function structFieldIndex(struct: StructType, name: string): number {
  const lower = name.toLowerCase();
  return struct.fields.findIndex((f) => f.name === name || f.name.toLowerCase() === lower);
}
