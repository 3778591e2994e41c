/**
 * What each option of Sluice's readers, writers and streaming queries does, for the generated option
 * reference (docs/options.md). The names come from the registries the readers and writers check
 * options against; a test fails when a registry gains or loses an option this table does not
 * describe, so the page cannot drift from the code.
 */

/** An option's description: what it does, and its default where it has one. */
export interface OptionDescription {
  readonly does: string;
  readonly default?: string;
}

/** Descriptions by option name, as the registries spell the names. */
export type OptionDescriptions = Readonly<Record<string, OptionDescription>>;

/** `writeStream.option(...)`: the streaming query's own options. */
export const STREAMING_QUERY: OptionDescriptions = {
  path: { does: 'The location of a file or Delta sink (the same as `start(path)`).' },
  checkpointLocation: {
    does: 'The local directory that keeps the offsets, commits and state of the query.',
  },
  numStatePartitions: {
    does: "How many partitions the state of each store is split into; fixed by the query's first run.",
    default: '16',
  },
  snapshotInterval: {
    does: 'Every how many versions a state partition is written whole rather than as a delta.',
    default: '10',
  },
  minBatchesToRetain: {
    does: 'How many committed batches of offsets, commits and state files maintenance keeps.',
    default: '100',
  },
  inlineStateMaxBytes: {
    does: 'The most bytes of compressed state changes a commit carries; larger changes go to state files, and 0 keeps state in files only.',
    default: '32 KiB',
  },
  parallelism: {
    does: "How many shards the query runs as, each reading its share of the source's partitions or files with its own checkpoint below `checkpointLocation` ([scale-out](scale-out.md)); fixed by the query's first run.",
    default: '1',
  },
  shard: {
    does: 'Which shard this query is, from 0 to parallelism - 1; required with a parallelism above 1.',
    default: '0',
  },
  stage: {
    does: 'Which stage of a query split through a repartition topic this shard runs: 1 (the operators below the first stateful one, written to the topic `sluice-<query name>-repartition` or `repartition.topic`) or 2 (from that topic to the sink); required for such a query with a parallelism above 1 ([repartition stage](repartition-stage.md)). Options `repartition.partitions` and `repartition.kafka.*` describe the topic and the connection to it.',
    default: 'none',
  },
};

/** `read` and `readStream` on the file formats (json, csv, parquet, text). */
export const FILE_READER: OptionDescriptions = {
  pathGlobFilter: {
    does: 'Only files whose name matches this glob are read.',
    default: 'every file',
  },
  recursiveFileLookup: {
    does: 'Accepted and checked; subdirectories are always read and no partitions are inferred.',
  },
  maxRecordBytes: {
    does: 'The longest record a line or CSV reader accepts; a longer one fails naming the file.',
    default: '16 MiB',
  },
  maxDecompressedBytes: {
    does: 'How far a `.gz` file (or a whole Parquet file) may inflate before the read fails.',
    default: '256 MiB',
  },
  mode: {
    does: 'What a malformed record becomes: `PERMISSIVE` (nulls and the corrupt-record column), `DROPMALFORMED`, or `FAILFAST` (an error naming file and line).',
    default: 'PERMISSIVE',
  },
  columnNameOfCorruptRecord: {
    does: 'The string column of the schema that receives the text of a malformed record.',
    default: '_corrupt_record',
  },
  multiLine: { does: 'Only `false`: records are read line by line (CSV record by record).' },
  allowSingleQuotes: { does: 'JSON strings and names may be single-quoted.', default: 'true' },
  allowNonNumericNumbers: { does: 'JSON may hold NaN, Infinity and -Infinity.', default: 'true' },
  allowUnquotedFieldNames: { does: 'Only `false`.' },
  allowNumericLeadingZeros: { does: 'Only `false`.' },
  allowBackslashEscapingAnyCharacter: { does: 'Only `false`.' },
  allowComments: { does: 'Only `false`.' },
  allowUnquotedControlChars: { does: 'Only `false`.' },
  header: {
    does: 'The first record of each CSV file holds the column names (skipped when a schema is given).',
    default: 'false',
  },
  inferSchema: {
    does: 'Infer int, long, double, boolean and timestamp CSV columns from every record (one more pass).',
    default: 'false',
  },
  delimiter: { does: 'The CSV field separator, one or more characters.', default: '`,`' },
  sep: { does: 'The same as `delimiter`.', default: '`,`' },
  quote: { does: "The CSV quote character; `''` turns quoting off.", default: '`"`' },
  escape: {
    does: 'The character that escapes a quote inside a quoted CSV field.',
    default: '`\\`',
  },
  nullValue: { does: 'The CSV text that stands for NULL.', default: "`''`" },
  maxFilesPerTrigger: { does: 'Streams: the most new files one batch reads.', default: 'no limit' },
  maxBytesPerTrigger: {
    does: 'Streams: about the most bytes one batch reads (a `.gz` by its uncompressed size; at least one file).',
    default: 'no limit',
  },
  latestFirst: { does: 'Streams: admit the newest files first.', default: 'false' },
  maxFileAge: {
    does: 'Streams: files this much older than the newest admitted file are ignored.',
    default: '7 days',
  },
  incrementalListing: {
    does: 'Streams: list only the paths after the greatest one admitted (S3 StartAfter), for roots whose paths grow with time.',
    default: 'false',
  },
  cleanSource: { does: 'Streams: only `off`; the source never moves or deletes its input.' },
};

/** `df.write` and `writeStream` on the file formats. */
export const FILE_WRITER: OptionDescriptions = {
  compression: {
    does: 'JSON, CSV and text: `none` or `gzip` (files named `.gz`); Parquet: a codec.',
    default: 'none; snappy for Parquet',
  },
  header: { does: 'Write the column names as the first CSV line.', default: 'false' },
  delimiter: { does: 'The CSV field separator.', default: '`,`' },
  sep: { does: 'The same as `delimiter`.', default: '`,`' },
  quote: { does: 'The CSV quote character.', default: '`"`' },
  escape: {
    does: 'The character written before a quote inside a quoted CSV field.',
    default: '\\',
  },
  nullValue: { does: 'The CSV text written for NULL.', default: "`''`" },
};

/** `df.write.format('delta')`, `writeStream.format('delta')` and the Delta sink. */
export const DELTA_WRITER: OptionDescriptions = {
  partitionBy: {
    does: 'Comma-separated partition columns of a new table.',
    default: "the existing table's, or none",
  },
  compression: { does: 'The Parquet codec of the data files.', default: 'snappy' },
  targetFileSize: {
    does: 'About the largest data file a write produces, in bytes.',
    default: '128 MiB',
  },
  maxCommitAttempts: {
    does: 'How often a write retries its commit when another writer took the version.',
    default: '10',
  },
};

/** `readStream.format('kafka')` and `read.format('kafka')`. */
export const KAFKA_SOURCE: OptionDescriptions = {
  'kafka.bootstrap.servers': { does: 'The brokers, `host:port` separated by commas.' },
  subscribe: { does: 'The topics to read, separated by commas.' },
  subscribePattern: { does: 'A regular expression of the topics to read.' },
  assign: { does: 'The partitions to read, as JSON: `{"clicks":[0,1]}`.' },
  startingOffsets: {
    does: '`earliest`, `latest`, or JSON offsets per partition, where a query first starts.',
    default: 'latest for a stream, earliest for a bounded read',
  },
  startingTimestamp: {
    does: 'Start every partition at the first offset at or after this time (ms).',
  },
  startingOffsetsByTimestamp: { does: 'JSON start times (ms) per partition.' },
  startingOffsetsByTimestampStrategy: {
    does: 'What a partition with no offset at the start time does: `error` or `latest`.',
    default: 'error',
  },
  endingOffsets: {
    does: 'Bounded reads: `latest` or JSON offsets per partition.',
    default: 'latest',
  },
  endingTimestamp: { does: 'Bounded reads: end every partition at this time (ms).' },
  endingOffsetsByTimestamp: { does: 'Bounded reads: JSON end times (ms) per partition.' },
  maxOffsetsPerTrigger: {
    does: 'Streams: the most offsets one batch reads, over all partitions.',
    default: 'no limit (100,000 in the Lambda function)',
  },
  minOffsetsPerTrigger: {
    does: 'Streams: hold a batch back until this many offsets arrived, or `maxTriggerDelay` passed.',
    default: 'no minimum',
  },
  maxTriggerDelay: {
    does: 'How long `minOffsetsPerTrigger` may hold batches back.',
    default: '15 minutes',
  },
  failOnDataLoss: {
    does: 'Fail when offsets the query needs were deleted or a partition vanished.',
    default: 'true',
  },
  includeHeaders: { does: "Add the records' `headers` column.", default: 'false' },
  'kafka.isolation.level': {
    does: '`read_committed` or `read_uncommitted`.',
    default: 'read_committed',
  },
  'kafka.default.api.timeout.ms': {
    does: 'How long one call to the cluster may take before it fails with a retriable error.',
    default: '30 s',
  },
  'kafka.group.id': {
    does: 'The consumer group committed offsets are copied to, for lag tools.',
    default: 'sluice-<queryId>',
  },
  commitOffsetsToGroup: {
    does: "Copy each committed batch's end offsets to the consumer group (never read back).",
    default: 'true',
  },
  'kafka.security.protocol': {
    does: '`PLAINTEXT`, `SSL`, `SASL_PLAINTEXT` or `SASL_SSL`.',
    default: 'PLAINTEXT',
  },
  'kafka.sasl.mechanism': { does: '`PLAIN`, `SCRAM-SHA-256`, `SCRAM-SHA-512` or `AWS_MSK_IAM`.' },
  'kafka.sasl.username': { does: 'The SASL user name, inline.' },
  'kafka.sasl.password': { does: 'The SASL password, inline.' },
  'kafka.sasl.secretArn': {
    does: 'A Secrets Manager secret holding `{"username","password"}`, read by the credentials provider.',
  },
  'kafka.sasl.aws.region': { does: 'The region of MSK IAM tokens.', default: "the SDK's region" },
  'kafka.ssl.ca': { does: "PEM certificates of the brokers' certificate authority." },
  'kafka.ssl.certificate': { does: "The client's PEM certificate, for mutual TLS." },
  'kafka.ssl.key': { does: "The client's PEM private key, for mutual TLS." },
};

/** `writeStream.format('dynamodb')`. */
export const DYNAMODB_SINK: OptionDescriptions = {
  tableName: {
    does: 'The table each result row is upserted into; it must exist when the query starts.',
  },
  partitionKey: { does: "The table's partition key attribute.", default: "the table's" },
  sortKey: { does: "The table's sort key attribute, when it has one.", default: "the table's" },
  keyColumns: {
    does: 'The result columns that key an item, separated by commas; each must be part of the key.',
    default: "an aggregation's grouping keys",
  },
};

/** `read.format('statestore')` and `read.format('state-metadata')`. */
export const STATE_SOURCE: OptionDescriptions = {
  operatorId: { does: 'The stateful operator whose store is read.', default: '0' },
  storeName: { does: "The operator's state store.", default: 'default' },
  batchId: {
    does: 'The committed batch whose state version is read; a batch that changed no state gives the version before it.',
    default: 'the latest committed batch',
  },
  checkpointTable: {
    does: "A deployed query's DynamoDB checkpoint table (the function's `SLUICE_CHECKPOINT_TABLE`); with `queryId` and `stateLocation`, instead of a directory given to `load`.",
  },
  queryId: { does: "The deployed query's id (`SLUICE_QUERY_ID`)." },
  stateLocation: {
    does: "The deployed query's state bucket and key prefix as `s3://bucket/prefix` (`SLUICE_STATE_BUCKET`, `SLUICE_STATE_PREFIX`); the state is under `prefix/queryId/`.",
    default: 'prefix `sluice`',
  },
};
