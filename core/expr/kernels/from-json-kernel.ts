/**
 * The columnar `from_json`: the JSON texts of a whole batch column decoded at once by the projected
 * decoder (core/io/json-column-decoder.ts), straight into typed child columns, instead of one
 * `JSON.parse` and one row object per record. Over `cast(binary as string)` it reads the bytes
 * themselves, so the cast decodes no string. The decoder gives exactly what the row evaluator gives
 * (values, the parse mode's nulls, drops and FAILFAST's error), and the records DROPMALFORMED
 * drops are recorded in the input under the row evaluator's reason (`malformedRecords`).
 */
import type { JsonColumnDecoder } from '../../io/json-column-decoder.js';
import { DROP_MALFORMED } from '../drop-row.js';
import type { Kernel } from './kernel.js';

/** The kernel of `from_json` over the texts (or UTF-8 bytes) `records` computes, decoded by `decoder`. */
export function fromJsonKernel(records: Kernel, decoder: JsonColumnDecoder): Kernel {
  return (input, active) => {
    const texts = records(input, active);
    const decoded = decoder.decode(texts, input.live(active));
    for (const i of decoded.dropped) input.drop(i, DROP_MALFORMED.reason);
    return decoded.column;
  };
}
