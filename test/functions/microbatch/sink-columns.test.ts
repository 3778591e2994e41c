/**
 * A sink setting that names result columns (a Delta sink's partitionBy, a DynamoDB sink's
 * keyColumns) is checked against the query's result when the function's container starts.
 */
import { describe, expect, it } from 'vitest';
import { InvalidOptionError } from '../../../core/index.js';
import { clickstreamQuery } from '../../../examples/clickstream-query.js';
import { createAwsClients } from '../../../functions/microbatch/aws-clients.js';
import { ENV, readConfiguration } from '../../../functions/microbatch/configuration.js';
import { QueryRuntime } from '../../../functions/microbatch/query-runtime.js';

const KAFKA = { kind: 'kafka', bootstrapServers: ['127.0.0.1:9092'], topic: 'clicks' };

/** The clickstream query's runtime (window, category, count) writing to `sink`. */
function runtime(sink: object): QueryRuntime {
  const config = readConfiguration({
    [ENV.queryId]: 'clicks',
    [ENV.checkpointTable]: 'sluice-checkpoints',
    [ENV.stateBucket]: 'sluice-state',
    [ENV.source]: JSON.stringify(KAFKA),
    [ENV.sink]: JSON.stringify(sink),
  });
  return new QueryRuntime(config, clickstreamQuery, createAwsClients(config));
}

describe('the cold start of a query whose sink names result columns', () => {
  it('accepts columns of the result', () => {
    expect(
      runtime({ kind: 'delta', bucket: 'lake', path: 't', partitionBy: ['category'] }),
    ).toBeInstanceOf(QueryRuntime);
    expect(
      runtime({ kind: 'dynamodb', tableName: 'counts', keyColumns: ['window', 'category'] }),
    ).toBeInstanceOf(QueryRuntime);
  });

  it.each([
    [
      { kind: 'delta', bucket: 'lake', path: 't', partitionBy: ['categry'] },
      'partitionBy',
      'categry',
    ],
    [{ kind: 'dynamodb', tableName: 'counts', keyColumns: ['window', 'cat'] }, 'keyColumns', 'cat'],
  ])(
    'fails when a column is missing, naming SLUICE_SINK, the field and the column (%o)',
    (sink, field, column) => {
      const start = () => runtime(sink);
      expect(start).toThrow(InvalidOptionError);
      expect(start).toThrow(
        `SLUICE_SINK: ${field} names the column '${column}', which the query's result does not have; its columns are [window, category, count].`,
      );
    },
  );
});
