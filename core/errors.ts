/**
 * Typed errors. Every error says what happened, to which input, and what to do; it carries a stable
 * `code`, whether retrying can help (`retriable`), and the underlying `cause` when there is one.
 */

/** Options shared by every Sluice error. */
export interface SluiceErrorOptions {
  readonly cause?: unknown;
  readonly retriable?: boolean;
}

/** Base class of every error Sluice throws on purpose. */
export class SluiceError extends Error {
  /** A stable, machine-readable error code. */
  readonly code: string;
  /** True when the same call may succeed if tried again. */
  readonly retriable: boolean;

  constructor(code: string, message: string, options: SluiceErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.retriable = options.retriable ?? false;
  }
}

/** A query refers to something that does not exist or has the wrong type (Spark's AnalysisException). */
export class AnalysisError extends SluiceError {
  constructor(message: string, options?: SluiceErrorOptions) {
    super('ANALYSIS', message, options);
  }
}

/** A streaming query's shape is not allowed with its output mode; raised when the query starts. */
export class UnsupportedOperationError extends SluiceError {
  constructor(message: string, options?: SluiceErrorOptions) {
    super('UNSUPPORTED_OPERATION', message, options);
  }
}

/** An option or argument given to an API is invalid; the message names it. */
export class InvalidOptionError extends SluiceError {
  constructor(message: string, options?: SluiceErrorOptions) {
    super('INVALID_OPTION', message, options);
  }
}

/** A row could not be processed (malformed input in FAILFAST mode, overflow, a bad cast). */
export class ExecutionError extends SluiceError {
  constructor(message: string, options?: SluiceErrorOptions) {
    super('EXECUTION', message, options);
  }
}

/** Checkpoint data is missing, corrupt, or belongs to an incompatible query. */
export class CheckpointError extends SluiceError {
  constructor(message: string, options?: SluiceErrorOptions) {
    super('CHECKPOINT', message, options);
  }
}

/** A source could not provide the data a batch asked for. */
export class SourceError extends SluiceError {
  constructor(message: string, options?: SluiceErrorOptions) {
    super('SOURCE', message, options);
  }
}

/** A sink could not write a batch. */
export class SinkError extends SluiceError {
  constructor(message: string, options?: SluiceErrorOptions) {
    super('SINK', message, options);
  }
}

/**
 * A Delta table's log cannot be used: it is missing or damaged, or it needs a protocol version or
 * feature Sluice does not implement. The message names the table and the log file.
 */
export class DeltaTableError extends SluiceError {
  constructor(message: string, options?: SluiceErrorOptions) {
    super('DELTA_TABLE', message, options);
  }
}

/**
 * A commit to a Delta table lost the race for its log version to other writers more often than
 * allowed. Retriable: running the batch again re-reads the log and commits on top of the winners.
 */
export class DeltaConflictError extends SluiceError {
  constructor(message: string, options?: SluiceErrorOptions) {
    super('DELTA_CONFLICT', message, { retriable: true, ...options });
  }
}

/**
 * A path that a log, manifest or checkpoint stores (a Delta `add`, a file sink manifest entry, a
 * spilled intent, a state file) would lead outside the root it is relative to: it climbs out with
 * `..`, is absolute, or names another scheme or bucket. The message names the root, the entry that
 * holds the path, and the path; such a log was written wrongly or tampered with and is never read.
 */
export class UnsafePathError extends SluiceError {
  constructor(message: string, options?: SluiceErrorOptions) {
    super('UNSAFE_PATH', message, options);
  }
}

/**
 * An input file is bigger than a reader's memory limit allows: a record longer than
 * `maxRecordBytes`, or a compressed file that inflates beyond `maxDecompressedBytes`. The message
 * names the file and the limit. Not retriable: the same file fails again until the limit is raised.
 */
export class InputLimitError extends SluiceError {
  constructor(message: string, options?: SluiceErrorOptions) {
    super('INPUT_LIMIT', message, options);
  }
}

/**
 * A user-defined function threw, or returned a value that is not of its declared return type. The
 * message and the fields name the function and the input row; `cause` is what the function threw.
 */
export class UserFunctionError extends SluiceError {
  constructor(
    message: string,
    /** The name the function was registered or created with. */
    readonly functionName: string,
    /** The input row it was called on, keyed by column name. */
    readonly row: Readonly<Record<string, unknown>>,
    options?: SluiceErrorOptions,
  ) {
    super('USER_FUNCTION', message, options);
  }
}

/**
 * SQL text that does not parse (Spark's ParseException, an AnalysisException too). The message and
 * the fields name the line and column (both 1-based) of the offending token and what was expected
 * there: "Syntax error at line 2, column 14: expected FROM, found 'FORM'."
 */
export class ParseError extends AnalysisError {
  override readonly code = 'PARSE';

  constructor(
    message: string,
    /** The line of the offending token, from 1. */
    readonly line: number,
    /** The column of the offending token, from 1. */
    readonly column: number,
    options?: SluiceErrorOptions,
  ) {
    super(message, options);
  }
}

/**
 * A query restarted on its checkpoint with a different parallelism (shard count) than the one the
 * checkpoint was created with: each shard's state holds only its share of the keys, so the shards of
 * a new count would miss state.
 */
export class ParallelismChangedError extends CheckpointError {
  /** The parallelism the checkpoint records. */
  readonly recordedParallelism: number;
  /** The parallelism the query was started with. */
  readonly requestedParallelism: number;

  constructor(location: string, recorded: number, requested: number) {
    super(
      `The checkpoint at ${location} was created with parallelism ${recorded}, but the query was started with parallelism ${requested}. State cannot be redistributed between shards yet: start it again with parallelism ${recorded}, or run it with parallelism ${requested} under a new query id (or checkpoint location), which reprocesses the source from its starting offsets.`,
    );
    this.recordedParallelism = recorded;
    this.requestedParallelism = requested;
  }
}

/**
 * A shard's stage does not fit its query: a stage named for a query that needs no split, a stage
 * that does not exist, or a split query run as several shards without a stage.
 */
export class StageSelectionError extends InvalidOptionError {
  /** The stage the shard was started with (0: none). */
  readonly stage: number;

  constructor(message: string, stage: number, options?: SluiceErrorOptions) {
    super(message, options);
    this.stage = stage;
  }
}
