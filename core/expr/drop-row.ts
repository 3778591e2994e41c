/**
 * DropRow: how an expression asks the operator evaluating it to discard the current row, as
 * `from_json` does in DROPMALFORMED mode. Operators catch it, skip the row, and count it under `reason`
 * in the batch's progress. It is a control signal, not an error: it never escapes an operator.
 */

/** Thrown by an evaluator to drop the row being evaluated. */
export class DropRow {
  /** Why the row was dropped; a key of the progress counters (for example `malformedRecords`). */
  readonly reason: string;

  constructor(reason: string) {
    this.reason = reason;
  }
}

/** The shared instance for malformed records, so dropping allocates nothing. */
export const DROP_MALFORMED = new DropRow('malformedRecords');
