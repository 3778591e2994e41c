/**
 * The sinks `writeStream.format(name)` can name, each built from the writer's options. A connector
 * adds its sink here with one entry, so DataStreamWriter and the Lambda function stay the same as
 * formats are added.
 *
 * Building a sink has two steps: the format's options are checked at once, without I/O (so a
 * function's cold start can fail on them), and the sink is created when the query starts. Creating
 * is asynchronous so that a connector whose SDK is large is loaded only by a query that writes to
 * it: the DynamoDB sink imports the AWS SDK on first use, never when the public entry is imported.
 */
import { InvalidOptionError } from '../errors.js';
import { KafkaSink } from '../kafka/kafka-sink.js';
import { kafkaSinkOptions } from '../kafka/kafka-sink-options.js';
import { ConsoleSink } from '../sinks/console-sink.js';
import { MemorySink } from '../sinks/memory-sink.js';
import type { Sink } from '../sinks/sink.js';
import type { DataFrame } from './dataframe.js';
import { deltaSink } from './delta-options.js';
import { dynamoDbSink } from './dynamodb-sink-settings.js';
import { fileSink } from './file-sink-options.js';
import { booleanOption, type OptionValue, positiveIntegerOption } from './reader-options.js';

/** What a sink factory is given: the writer's options (keys lower-cased), the query and its name. */
export interface SinkRequest {
  readonly options: ReadonlyMap<string, OptionValue>;
  readonly df: DataFrame;
  readonly queryName?: string;
}

/** Creates a sink whose options were checked (loading its connector, where it has one to load). */
export type SinkCreator = () => Promise<Sink>;

/** Checks the options of one format's sink, throwing InvalidOptionError naming a bad one. */
export type SinkFactory = (request: SinkRequest) => SinkCreator;

const SINK_FORMATS: Readonly<Record<string, SinkFactory>> = {
  memory: ({ df, queryName }) => {
    const sink = new MemorySink(df.schema, queryName ?? 'memory');
    if (queryName) df.session.registerTable(queryName, sink);
    return created(sink);
  },
  console: ({ options }) =>
    created(
      new ConsoleSink({
        numRows: positiveIntegerOption('numRows', options.get('numrows')),
        truncate: booleanOption('truncate', options.get('truncate')),
      }),
    ),
  json: (request) =>
    created(fileSink('json', requiredPathOption('json', request.options), request)),
  csv: (request) => created(fileSink('csv', requiredPathOption('csv', request.options), request)),
  parquet: (request) =>
    created(fileSink('parquet', requiredPathOption('parquet', request.options), request)),
  text: (request) =>
    created(fileSink('text', requiredPathOption('text', request.options), request)),
  kafka: ({ options }) => created(new KafkaSink(kafkaSinkOptions(options))),
  delta: (request) => created(deltaSink(request)),
  dynamodb: dynamoDbSink,
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

/** Checks the options of a format's sink now; the creator it returns makes the sink. */
export function checkSink(format: string, request: SinkRequest): SinkCreator {
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

/** The creator of a sink that was built with its options (it loads nothing more). */
function created(sink: Sink): SinkCreator {
  return () => Promise.resolve(sink);
}
