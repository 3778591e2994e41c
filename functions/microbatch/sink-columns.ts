/**
 * The result columns a sink setting names (a Delta sink's `partitionBy`, a DynamoDB sink's
 * `keyColumns`), checked against the query's result schema at cold start: the sinks check them only
 * when they open, at the first batch, after the function has already started taking invocations.
 */
import { InvalidOptionError, type StructType } from '../../core/index.js';
import type { SinkConfig } from './configuration.js';

/**
 * Throws InvalidOptionError naming the sink field and the column when `sink` names a column the
 * query's result (`schema`) does not have.
 */
export function checkSinkColumns(sink: SinkConfig, schema: StructType): void {
  const named =
    sink.kind === 'delta'
      ? { field: 'partitionBy', columns: sink.partitionBy }
      : sink.kind === 'dynamodb'
        ? { field: 'keyColumns', columns: sink.keyColumns }
        : undefined;
  const columns = schema.fields.map((f) => f.name);
  const missing = named?.columns?.find((c) => !columns.includes(c));
  if (missing !== undefined) {
    throw new InvalidOptionError(
      `${named!.field} names the column '${missing}', which the query's result does not have; its columns are [${columns.join(', ')}].`,
    );
  }
}
