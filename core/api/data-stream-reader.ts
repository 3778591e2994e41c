/**
 * DataStreamReader (`session.readStream`): unbounded DataFrames from a directory of files, Kafka
 * topics or a MemoryStream. A file stream needs its schema up front, as in Spark, so the query's
 * shape cannot change when new files arrive; Kafka's schema is fixed.
 */
import { InvalidOptionError } from '../errors.js';
import { TEXT_SCHEMA } from '../io/data-files.js';
import { kafkaSchema } from '../kafka/kafka-schema.js';
import { KafkaSource } from '../kafka/kafka-source.js';
import { describeSubscription } from '../kafka/kafka-subscription.js';
import { newPlanId, type StreamingRelation } from '../plan/logical-plan.js';
import { FileStreamSource } from '../sources/file-stream-source.js';
import type { MemoryStream } from '../sources/memory-stream.js';
import type { StructType } from '../types/data-types.js';
import { DataFrame } from './dataframe.js';
import { FileReaderBuilder } from './file-reader-builder.js';
import { booleanOption, fileReadOptions, positiveIntegerOption } from './reader-options.js';
import type { SluiceSession } from './session.js';

/** Reads streaming DataFrames. */
export class DataStreamReader extends FileReaderBuilder {
  constructor(private readonly session: SluiceSession) {
    super();
  }

  /**
   * New files appearing under a directory, as a stream; with format('kafka'), the records of the
   * topics the options name (no path).
   */
  load(location?: string): DataFrame {
    const format = this.formatName;
    if (format === 'kafka') return this.kafka(location);
    const directory = this.fileLocation(location);
    const schema = format === 'text' ? TEXT_SCHEMA : this.userSchema;
    if (!schema) {
      throw new InvalidOptionError(
        `A file stream over ${directory} needs a schema: call readStream.schema(...) before load(), so the query's shape cannot change as files arrive.`,
      );
    }
    const read = { ...fileReadOptions(this.options, schema), schema };
    const maxFilesPerTrigger = positiveIntegerOption(
      'maxFilesPerTrigger',
      this.options.get('maxfilespertrigger'),
    );
    const latestFirst = booleanOption('latestFirst', this.options.get('latestfirst'));
    return this.relation(
      `FileSource[${directory}]`,
      schema,
      (context) =>
        new FileStreamSource({ directory, format, read, maxFilesPerTrigger, latestFirst }, context),
    );
  }

  private kafka(location: string | undefined): DataFrame {
    const options = this.kafkaSourceOptions(location, 'stream');
    return this.relation(
      `KafkaSource[${describeSubscription(options.subscription)}]`,
      kafkaSchema(options.includeHeaders),
      (context) => new KafkaSource(options, context),
    );
  }

  /** The rows added to a MemoryStream, as a stream. */
  memory(stream: MemoryStream): DataFrame {
    return this.relation(stream.description, stream.schema, () => stream);
  }

  private relation(
    description: string,
    schema: StructType,
    source: StreamingRelation['source'],
  ): DataFrame {
    return new DataFrame(this.session, {
      kind: 'streamingRelation',
      id: newPlanId(),
      description,
      schema,
      source,
      isStreaming: true,
    });
  }
}
