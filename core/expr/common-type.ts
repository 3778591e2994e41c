/**
 * The common type of several expressions, as CASE WHEN and coalesce need it. Kept apart from the
 * binder so that function binders can use it without an import cycle through the function table.
 */
import { AnalysisError } from '../errors.js';
import { type DataType, NullType, typeName } from '../types/data-types.js';

/** The type that every one of `types` can be cast to without loss, as CASE WHEN and coalesce need. */
export function commonType(types: readonly DataType[], what: string): DataType {
  const known = types.filter((t) => t.kind !== 'null');
  if (known.length === 0) return NullType;
  let result = known[0];
  for (const t of known.slice(1)) {
    if (result.kind === t.kind) continue;
    const numeric = ['int', 'long', 'double'];
    if (numeric.includes(result.kind) && numeric.includes(t.kind)) {
      result = numeric.indexOf(t.kind) > numeric.indexOf(result.kind) ? t : result;
    } else if (isDatetime(result) && isDatetime(t)) {
      result = result.kind === 'timestamp' ? result : t; // a date widens to its midnight, as in Spark
    } else if (result.kind === 'string' || t.kind === 'string') {
      result = result.kind === 'string' ? result : t;
    } else {
      throw new AnalysisError(
        `${what} mixes incompatible types ${typeName(result)} and ${typeName(t)}; cast them to one type.`,
      );
    }
  }
  return result;
}

function isDatetime(t: DataType): boolean {
  return t.kind === 'date' || t.kind === 'timestamp';
}
