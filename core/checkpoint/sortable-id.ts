/**
 * Batch ids (and other counters) in object keys and sort keys, zero-padded to 20 digits so that
 * listing order is numeric order. The state garbage collector reads them back (`\d{20}`).
 */

/** `42` → `00000000000000000042`. */
export function sortableId(n: number): string {
  return String(n).padStart(20, '0');
}
