/**
 * Sluice: Structured Streaming for serverless TypeScript. One DataFrame API for bounded tables and
 * streams; streams run as micro-batches with exactly-once state and output through restarts.
 *
 * ```ts
 * const session = new SluiceSession();
 * const counts = session.readStream.schema(schema).json('in/')
 *   .withWatermark('ts', '15 minutes')
 *   .groupBy(window(col('ts'), '10 minutes'), col('category'))
 *   .count();
 * const query = await counts.writeStream.outputMode('append').format('console')
 *   .option('checkpointLocation', 'checkpoint/').start();
 * ```
 *
 * This entry loads no AWS SDK and no Kafka client: the DynamoDB and S3 checkpoint, the DynamoDB sink,
 * S3 locations and the AWS Kafka credentials are in the AWS entry (core/aws/index.ts, `sluice/aws`);
 * Kafka's source, sink, readers, writers and security settings in the Kafka entry
 * (core/kafka/index.ts, `sluice/kafka`). `readStream.format('kafka')` works from this entry alone.
 */
export { SluiceSession, type SluiceSessionOptions } from './api/session.js';
export type {
  ObjectStoreResolver,
  ObjectStoreResolvers,
} from './checkpoint/object-store-resolver.js';
export { DataFrame } from './api/dataframe.js';
export {
  DataFrameNaFunctions,
  type DropHow,
  type FillValue,
} from './api/dataframe-na-functions.js';
export { Catalog, type CatalogTable } from './api/catalog.js';
export { GroupedData, type TransformWithStateOptions } from './api/grouped-data.js';
export type { PivotValue } from './api/pivot-plan.js';
export type {
  ExpiredTimerInfo,
  ListState,
  MapState,
  ProcessorOutput,
  StatefulProcessor,
  StatefulProcessorHandle,
  TimeMode,
  TimerValues,
  TTLConfig,
  ValueState,
} from './plan/stateful-processor.js';
export type { ExplainMode } from './exec/explain-text.js';
export { Column, type ColumnLike, type SortColumn } from './api/column.js';
export { DataFrameReader } from './api/dataframe-reader.js';
export { DataFrameWriter, type SaveMode } from './api/dataframe-writer.js';
export { DataStreamReader } from './api/data-stream-reader.js';
export {
  DataStreamWriter,
  DEFAULT_SNAPSHOT_INTERVAL,
  DEFAULT_STATE_PARTITIONS,
} from './api/data-stream-writer.js';
export type { CheckedStreamingQuery, QueryStartOptions } from './api/streaming-query-builder.js';
export type { OptionValue } from './api/reader-options.js';
export {
  avg,
  coalesce,
  col,
  collect_list,
  count,
  countDistinct,
  current_timestamp,
  explode,
  explode_outer,
  first,
  interval,
  last,
  lit,
  max,
  min,
  not,
  session_window,
  sum,
  when,
  window,
  window_time,
} from './api/functions.js';
export * from './api/string-functions.js';
export * from './api/math-functions.js';
export * from './api/statistical-functions.js';
export * from './api/datetime-functions.js';
export * from './api/json-functions.js';
export * from './api/collection-functions.js';
export * from './api/conditional-functions.js';
export * from './api/hash-functions.js';
export * from './api/window-functions.js';
export { Window, WindowSpecBuilder } from './api/window.js';
export {
  udf,
  UDFRegistration,
  type UserDefinedFunction,
  type UserFunction,
} from './api/user-defined-function.js';
export { type CalendarInterval, IntervalType, intervalText } from './types/calendar-interval.js';
export {
  ArrayOf,
  type ArrayType,
  BinaryType,
  BooleanType,
  type DataType,
  DateType,
  DoubleType,
  field,
  IntegerType,
  LongType,
  MapOf,
  type MapType,
  NullType,
  StringType,
  struct,
  type StructField,
  type StructType,
  TimestampType,
  treeString,
  typeName,
} from './types/data-types.js';
export { parseSchema, parseTypeName } from './types/type-names.js';
export type { Row, RowObject } from './types/row.js';
export { Timestamp } from './types/timestamp.js';
export {
  AnalysisError,
  CheckpointError,
  DeltaConflictError,
  DeltaTableError,
  ExecutionError,
  InputLimitError,
  InvalidOptionError,
  ParallelismChangedError,
  ParseError,
  SinkError,
  SluiceError,
  SourceError,
  StageSelectionError,
  UnsafePathError,
  UnsupportedOperationError,
  UserFunctionError,
} from './errors.js';
export { MemoryStream } from './sources/memory-stream.js';
export {
  DEFAULT_MAX_FILE_AGE_MS,
  FileStreamSource,
  type FileStreamOptions,
} from './sources/file-stream-source.js';
export type { FileListing, ListedFile } from './sources/file-listing.js';
export { DirectoryListing } from './sources/directory-listing.js';
export {
  ObjectStoreListing,
  type ObjectMetadataListing,
  type StoredObject,
} from './sources/object-store-listing.js';
export type {
  Offset,
  PlanningContext,
  Source,
  SourceContext,
  SourceFactory,
} from './sources/source.js';
export type { OutputMode, Sink, SinkContext } from './sinks/sink.js';
export { MemorySink } from './sinks/memory-sink.js';
export { ConsoleSink } from './sinks/console-sink.js';
export { ForeachBatchSink, type ForeachBatchFunction } from './api/foreach-batch-sink.js';
export { FileSink, type FileSinkOptions } from './sinks/file-sink.js';
export {
  DEFAULT_COMPACT_INTERVAL,
  FILE_SINK_LOG_DIRECTORY,
  FileSinkLog,
  type SinkFileEntry,
  type SinkManifest,
} from './io/file-sink-log.js';
export { DeltaSink, type DeltaSinkOptions } from './delta/delta-sink.js';
export {
  DEFAULT_MAX_COMMIT_ATTEMPTS,
  DEFAULT_TARGET_FILE_SIZE,
  type DeltaWriteOptions,
} from './delta/delta-write-options.js';
export { type CommitAttempt, DeltaLog, type DeltaTableLocation } from './delta/delta-log.js';
export { DeltaSnapshot, type DeltaCommit } from './delta/delta-snapshot.js';
export {
  CHECKPOINT_WARNING_CODE,
  checkpointActions,
  type CheckpointOutcome,
  writeCheckpoint,
} from './delta/delta-checkpoint.js';
export { DeltaStreamSource } from './delta/delta-stream-source.js';
export {
  DEFAULT_MAX_FILES_PER_TRIGGER,
  type DeltaSourceOptions,
} from './delta/delta-source-options.js';
export type { DeltaSourceOffset } from './delta/delta-source-offset.js';
export {
  type DeltaSaveMode,
  type DeltaTableWriteOptions,
  type DeltaTableWriteResult,
  writeDeltaTable,
} from './delta/delta-table-writer.js';
export {
  CHECKPOINT_INTERVAL,
  DEFAULT_CHECKPOINT_INTERVAL,
  DEFAULT_DELETED_FILE_RETENTION_MS,
  DELETED_FILE_RETENTION,
} from './delta/table-properties.js';
export { type DeltaFormatName, DeltaReaderBuilder } from './api/delta-reader-builder.js';
export type { DeltaReadOptions } from './api/dataframe-reader.js';
export type {
  AddFileAction,
  CommitInfoAction,
  DeltaAction,
  MetadataAction,
  PartitionValues,
  ProtocolAction,
  RemoveFileAction,
  TransactionAction,
} from './delta/delta-actions.js';
export { StreamingQuery } from './streaming/streaming-query.js';
export { StreamingQueryManager } from './api/streaming-query-manager.js';
export {
  IDLE_EVENT_INTERVAL_MS,
  type QueryIdleEvent,
  type QueryProgressEvent,
  type QueryStartedEvent,
  type QueryTerminatedEvent,
  type StreamingQueryListener,
} from './streaming/streaming-query-listener.js';
export type { StreamingQueryStatus } from './streaming/streaming-query-status.js';
export type { Trigger } from './streaming/trigger.js';
export type { BatchStep } from './streaming/micro-batch-execution.js';
export {
  progressLine,
  type DurationBreakdown,
  type SourceProgress,
  type StateOperatorProgress,
  type StreamingQueryProgress,
} from './streaming/progress.js';
export type {
  BatchFailure,
  CheckpointBackend,
  CheckpointStore,
  CommitRecord,
  CreateMetadataResult,
  LeaseHolder,
  OffsetIntent,
  PutIntentResult,
  QueryMetadata,
} from './checkpoint/checkpoint-store.js';
export type { CreateResult, ObjectRangeReading, ObjectStore } from './checkpoint/object-store.js';
export { LocalDirectoryStore } from './checkpoint/local-directory-store.js';
export { MemoryObjectStore } from './checkpoint/memory-object-store.js';
export { FileCheckpointStore } from './checkpoint/file-checkpoint-store.js';
export { localCheckpointBackend } from './checkpoint/local-checkpoint-backend.js';
export { DEFAULT_HISTORY_LENGTH, progressHistory } from './streaming/progress-history.js';
export { checkpointStatus, type CheckpointStatus } from './streaming/checkpoint-status.js';
export {
  DEFAULT_SHARD_IDLE_TIMEOUT_MS,
  describeShard,
  type ShardIdentity,
  UNSHARDED,
  validateShardIdentity,
} from './checkpoint/shard-identity.js';
export {
  type QueryWatermark,
  queryWatermark,
  readShardWatermark,
  type ShardWatermark,
} from './streaming/query-watermark.js';
export {
  shardedQueryStatus,
  type ShardedQueryStatus,
  type ShardedStatusOptions,
} from './streaming/sharded-query-status.js';
export { validateKeyPrefix, validateQueryId } from './checkpoint/checkpoint-identifiers.js';
export {
  type ReferenceEncoding,
  type ReferenceOrigin,
  resolveStoredReference,
} from './checkpoint/stored-reference.js';
export type { DynamoDbSinkFactory, DynamoDbSinkSettings } from './sinks/dynamodb-sink-factory.js';
export type {
  CheckpointBackendFactory,
  DeployedCheckpointLocation,
} from './checkpoint/deployed-checkpoint.js';
export {
  runInvocation,
  type InvocationBudget,
  type InvocationResult,
  type InvocationStop,
} from './streaming/invocation.js';
export {
  DEFAULT_LEASE_MS,
  MicroBatchExecution,
  type BatchOutcome,
  type BatchReplay,
  type MicroBatchExecutionOptions,
} from './streaming/micro-batch-execution.js';
export type { CheckpointMaintenance } from './streaming/checkpoint-maintenance.js';
export type { GarbageCollection } from './state/state-garbage-collector.js';
export {
  listStateStores,
  readStateStore,
  type StateStoreListing,
  type StateStoreRow,
  type StateStoreSelection,
} from './state/state-store-reader.js';
