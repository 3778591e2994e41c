/**
 * The function's sink configuration as `writeStream.format(...)` options (Spark's names, as the sink
 * registry takes them), so the function's sink is built and checked exactly as a query's is anywhere
 * else. Locations on S3 are `s3://` URLs, which the function's session resolves with its S3 client.
 */
import type { SinkConfig } from './configuration.js';
import { kafkaSinkOptions } from './kafka-source-options.js';

/** A sink as the writer names it: its format and its options. */
export interface SinkWriterOptions {
  readonly format: string;
  readonly options: Readonly<Record<string, string>>;
}

/** The writer's format and options for `sink`; settings left out are left to the sink's defaults. */
export function sinkWriterOptions(sink: SinkConfig): SinkWriterOptions {
  switch (sink.kind) {
    case 'delta':
      return {
        format: 'delta',
        options: {
          path: s3Url(sink.bucket, sink.path),
          ...listOption('partitionBy', sink.partitionBy),
        },
      };
    case 'files':
      return { format: sink.format, options: { path: s3Url(sink.bucket, sink.path) } };
    case 'dynamodb':
      return {
        format: 'dynamodb',
        options: {
          tableName: sink.tableName,
          ...(sink.partitionKey === undefined ? {} : { partitionKey: sink.partitionKey }),
          ...(sink.sortKey === undefined ? {} : { sortKey: sink.sortKey }),
          ...listOption('keyColumns', sink.keyColumns),
        },
      };
    case 'kafka':
      return { format: 'kafka', options: kafkaSinkOptions(sink) };
  }
}

function s3Url(bucket: string, path: string): string {
  return `s3://${bucket}/${path}`;
}

/** A column list option, comma-separated as the writer reads it. */
function listOption(name: string, columns: readonly string[] | undefined): Record<string, string> {
  return columns === undefined ? {} : { [name]: columns.join(',') };
}
