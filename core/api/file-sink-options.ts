/**
 * The file sink of `writeStream.format('json' | 'csv' | 'parquet' | 'text').start(location)`: a
 * FileSink on a local directory, or on the object store a URL such as `s3://bucket/prefix` names (from
 * the session's `objectStores`), configured from the writer's string-valued options, each checked with
 * an error that names it.
 */
import { LocalDirectoryStore } from '../checkpoint/local-directory-store.js';
import { InvalidOptionError } from '../errors.js';
import type { FileFormat } from '../io/data-files.js';
import { FileSink, type FileSinkOptions } from '../sinks/file-sink.js';
import { booleanOption, type OptionValue, positiveIntegerOption } from './reader-options.js';
import type { SinkRequest } from './sink-formats.js';

/**
 * A FileSink writing `format` files under `location`. Options (case-insensitive): compactInterval,
 * compression (a Parquet codec, or none or gzip for the line formats), and CSV's header, delimiter
 * (or sep), quote, escape, nullValue.
 */
export function fileSink(format: FileFormat, location: string, request: SinkRequest): FileSink {
  const store = request.df.session.objectStore(location) ?? new LocalDirectoryStore(location);
  return new FileSink(store, fileSinkOptions(format, request.options));
}

/** The options of every streaming query, which reach the sink's option map too. */
const QUERY_OPTIONS = [
  'path',
  'checkpointLocation',
  'numStatePartitions',
  'snapshotInterval',
  'minBatchesToRetain',
];
const FILE_SINK_OPTIONS = [
  'compactInterval',
  'compression',
  'header',
  'delimiter',
  'sep',
  'quote',
  'escape',
  'nullValue',
  'partitionBy',
];
const KNOWN = new Set([...QUERY_OPTIONS, ...FILE_SINK_OPTIONS].map((name) => name.toLowerCase()));

/**
 * Throws an InvalidOptionError for an option the file sink does not implement (a misspelt name,
 * or a Spark option such as `maxRecordsPerFile`), which would otherwise silently do nothing.
 */
function refuseUnknownOptions(format: FileFormat, options: ReadonlyMap<string, OptionValue>): void {
  for (const key of options.keys()) {
    if (KNOWN.has(key)) continue;
    throw new InvalidOptionError(
      `writeStream.format('${format}') refuses option '${key}': the file sink does not implement it. Drop it; the supported options are ${FILE_SINK_OPTIONS.filter((o) => o !== 'partitionBy').join(', ')}.`,
    );
  }
}

/** The FileSink options the writer's options give. */
function fileSinkOptions(
  format: FileFormat,
  options: ReadonlyMap<string, OptionValue>,
): FileSinkOptions {
  refuseUnknownOptions(format, options);
  if (options.has('partitionby')) {
    throw new InvalidOptionError(
      `The ${format} file sink does not partition its output (option 'partitionBy'); drop the option, or write to the Delta sink, which does.`,
    );
  }
  const text = (key: string) => {
    const value = options.get(key);
    return value === undefined ? undefined : String(value);
  };
  return {
    format,
    compactInterval: positiveIntegerOption('compactInterval', options.get('compactinterval')),
    compression: text('compression'),
    csv: {
      header: booleanOption('header', options.get('header')),
      delimiter: text('delimiter') ?? text('sep'),
      quote: text('quote'),
      escape: text('escape'),
      nullValue: text('nullvalue'),
    },
  };
}
