/**
 * The sinks `writeStream.format(name)` can name, each built from the writer's options. A connector
 * adds its sink here with one entry, so DataStreamWriter stays the same as formats are added.
 */
import { InvalidOptionError } from '../errors.js';
import { KafkaSink } from '../kafka/kafka-sink.js';
import { kafkaSinkOptions } from '../kafka/kafka-sink-options.js';
import { ConsoleSink } from '../sinks/console-sink.js';
import { MemorySink } from '../sinks/memory-sink.js';
import type { Sink } from '../sinks/sink.js';
import type { DataFrame } from './dataframe.js';
import { deltaSink } from './delta-options.js';
import { fileSink } from './file-sink-options.js';
import { booleanOption, type OptionValue, positiveIntegerOption } from './reader-options.js';

/** What a sink factory is given: the writer's options (keys lower-cased), the query and its name. */
export interface SinkRequest {
  readonly options: ReadonlyMap<string, OptionValue>;
  readonly df: DataFrame;
  readonly queryName?: string;
}

/** Builds the sink of one format. */
export type SinkFactory = (request: SinkRequest) => Sink;

const SINK_FORMATS: Readonly<Record<string, SinkFactory>> = {
  memory: ({ df, queryName }) => {
    const sink = new MemorySink(df.schema, queryName ?? 'memory');
    if (queryName) df.session.registerTable(queryName, sink);
    return sink;
  },
  console: ({ options }) =>
    new ConsoleSink({
      numRows: positiveIntegerOption('numRows', options.get('numrows')),
      truncate: booleanOption('truncate', options.get('truncate')),
    }),
  json: (request) => fileSink('json', requiredPathOption('json', request.options), request),
  csv: (request) => fileSink('csv', requiredPathOption('csv', request.options), request),
  parquet: (request) =>
    fileSink('parquet', requiredPathOption('parquet', request.options), request),
  text: (request) => fileSink('text', requiredPathOption('text', request.options), request),
  kafka: ({ options }) => new KafkaSink(kafkaSinkOptions(options)),
  delta: deltaSink,
};

/** Checks that `name` is a sink format, with an error listing the formats there are. */
export function checkSinkFormat(name: string): string {
  const format = name.toLowerCase();
  if (!(format in SINK_FORMATS)) {
    throw new InvalidOptionError(
      `Unknown sink format '${name}'; use ${Object.keys(SINK_FORMATS).join(', ')}, foreachBatch(fn), or sink(customSink).`,
    );
  }
  return format;
}

/** Builds the sink of a checked format. */
export function createSink(format: string, request: SinkRequest): Sink {
  return SINK_FORMATS[checkSinkFormat(format)](request);
}

/** The option a sink reads its location from (`start(path)` sets it), or an error naming the format. */
export function requiredPathOption(
  format: string,
  options: ReadonlyMap<string, OptionValue>,
): string {
  const path = options.get('path');
  if (path === undefined || String(path).trim() === '') {
    throw new InvalidOptionError(
      `The ${format} sink needs a location: call start(path) or option('path', location).`,
    );
  }
  return String(path);
}
