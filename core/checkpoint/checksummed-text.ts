/**
 * Checksummed text: a header line (a JSON object carrying `sha256`, the SHA-256 of the body in hex)
 * followed by the body. State files and checkpoint records are stored this way, so an object edited
 * or truncated after it was written is detected when it is read, instead of being used.
 */
import { createHash } from 'node:crypto';

/** A verified header and body. */
export interface OpenedText {
  readonly header: Readonly<Record<string, unknown>>;
  readonly body: string;
}

/** Why a text did not verify, for the caller's error message (which names the object). */
export interface TextProblem {
  readonly problem: string;
  readonly cause?: unknown;
}

/** `header` (plus the body's checksum) as the first line, then `body`. */
export function sealText(header: Readonly<Record<string, unknown>>, body: string): string {
  return `${JSON.stringify({ ...header, sha256: sha256(body) })}\n${body}`;
}

/** Splits a sealed text and verifies its checksum. */
export function openText(text: string): OpenedText | TextProblem {
  const newline = text.indexOf('\n');
  const headerText = newline < 0 ? text : text.slice(0, newline);
  const body = newline < 0 ? '' : text.slice(newline + 1);
  let header: unknown;
  try {
    header = JSON.parse(headerText);
  } catch (cause) {
    return { problem: 'unreadable header', cause };
  }
  if (typeof header !== 'object' || header === null || Array.isArray(header))
    return { problem: 'the header is not a JSON object' };
  if ((header as { sha256?: unknown }).sha256 !== sha256(body))
    return { problem: 'checksum mismatch' };
  return { header: header as Record<string, unknown>, body };
}

/** True when `opened` is a problem rather than a verified text. */
export function isTextProblem(opened: OpenedText | TextProblem): opened is TextProblem {
  return 'problem' in opened;
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
