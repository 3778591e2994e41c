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
import { checkFileWriterOptionNames, csvWriterOptions } from './file-writer-options.js';
import { type OptionValue, positiveIntegerOption, stringOption } from './reader-options.js';
import type { SinkRequest } from './sink-formats.js';
import { isStreamingQueryOption } from './streaming-query-option-names.js';

/**
 * A FileSink writing `format` files under `location`. Options (case-insensitive): compactInterval
 * and the file writer options (file-writer-options.ts: compression, and CSV's header, delimiter or
 * sep, quote, escape, nullValue); any other is refused, naming it.
 */
export function fileSink(format: FileFormat, location: string, request: SinkRequest): FileSink {
  const store = request.df.session.objectStore(location) ?? new LocalDirectoryStore(location);
  return new FileSink(store, fileSinkOptions(format, request.options));
}

/** The FileSink options the writer's options give. */
function fileSinkOptions(
  format: FileFormat,
  options: ReadonlyMap<string, OptionValue>,
): FileSinkOptions {
  if (options.has('partitionby')) {
    throw new InvalidOptionError(
      `The ${format} file sink does not partition its output (option 'partitionBy'); drop the option, or write to the Delta sink, which does.`,
    );
  }
  const sinkOptions = new Map([...options].filter(([key]) => !isStreamingQueryOption(key)));
  checkFileWriterOptionNames(sinkOptions, format, 'writeStream', ['compactInterval']);
  return {
    format,
    compactInterval: positiveIntegerOption('compactInterval', options.get('compactinterval')),
    compression: stringOption(options.get('compression')),
    csv: csvWriterOptions(options),
  };
}
