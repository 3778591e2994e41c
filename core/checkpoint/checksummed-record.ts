/**
 * A JSON record stored as checksummed text (see checksummed-text.ts): checkpoint records (metadata,
 * intents, commits, the DynamoDB head) and state manifests. JSON never holds a raw newline, so a
 * record without one was written before records were checksummed; it is still read, as it was then,
 * so that checkpoints of earlier versions keep working.
 */
import { isTextProblem, openText, sealText, type TextProblem } from './checksummed-text.js';

/** The record as stored. */
export function encodeChecksummedRecord(
  record: object,
  header: Readonly<Record<string, unknown>> = {},
): string {
  return sealText(header, JSON.stringify(record));
}

/** The stored record as a JSON object, or why it is not one (the caller names the object). */
export function decodeChecksummedRecord(text: string): { readonly record: object } | TextProblem {
  let body = text;
  if (text.includes('\n')) {
    const opened = openText(text);
    if (isTextProblem(opened)) return opened;
    body = opened.body;
  }
  let record: unknown;
  try {
    record = JSON.parse(body);
  } catch (cause) {
    return { problem: 'not valid JSON', cause };
  }
  // Valid JSON that is not a record (`null`, a number) is as corrupt as a truncated file.
  if (typeof record !== 'object' || record === null || Array.isArray(record))
    return { problem: 'not a JSON object' };
  return { record };
}
