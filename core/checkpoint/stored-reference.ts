/**
 * The one place where a path read back from storage becomes an object key. Delta logs, file sink
 * manifests and the checkpoint store references to other objects as paths relative to a root (the
 * table, the sink's output, the checkpoint's store); whoever can write such a log must not be able
 * to make a reader fetch, or a collector delete, anything outside that root. So every stored
 * reference is resolved here, after percent-decoding when it is a URI, and refused when it is
 * empty, absolute (a leading '/'), has a scheme (`file:`, `s3://other-bucket/...`, a drive letter)
 * or a '.' or '..' segment. A local directory would follow '..' out of the root, and on S3 it would
 * name a key beside the prefix; '.' is refused too, since S3 and a directory would disagree on it.
 */
import { UnsafePathError } from '../errors.js';

/** How a stored reference is written. */
export type ReferenceEncoding =
  /** A URI path (RFC 2396), percent-encoded: Delta's `add` and `remove` paths. */
  | 'uri'
  /** The object key itself, relative to the root, '/'-separated. */
  | 'key';

/** Where a reference was read from, for the message that refuses it. */
export interface ReferenceOrigin {
  /** The root the reference is relative to, e.g. `Delta table s3://bucket/tables/clicks`. */
  readonly root: string;
  /** The entry that holds it, e.g. `log version 3, add action`. */
  readonly entry: string;
  /** How the reference is written. */
  readonly encoding: ReferenceEncoding;
}

/** A scheme as RFC 3986 defines it; also matches a Windows drive letter (`C:`). */
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

/**
 * The object key, relative to its root, that `reference` stands for. Throws UnsafePathError naming
 * the root, the entry and the reference when it would lead outside the root or cannot be decoded.
 */
export function resolveStoredReference(reference: string, origin: ReferenceOrigin): string {
  const key = origin.encoding === 'uri' ? decoded(reference, origin) : reference;
  const problem = containmentProblem(key);
  if (problem !== undefined) {
    const shown =
      key === reference
        ? JSON.stringify(reference)
        : `${JSON.stringify(reference)} (decoded ${JSON.stringify(key)})`;
    throw unsafe(origin, shown, problem);
  }
  return key;
}

/** Why `key` is not a key under its root, or undefined when it is one. */
function containmentProblem(key: string): string | undefined {
  if (key === '') return 'is empty';
  if (key.startsWith('/')) return 'is an absolute path';
  if (SCHEME.test(key)) return `has the scheme '${SCHEME.exec(key)![0]}', so it points elsewhere`;
  const segments = key.split('/');
  if (segments.includes('..')) return "climbs out of the root with a '..' segment";
  if (segments.includes('.')) return "has a '.' segment";
  return undefined;
}

function decoded(reference: string, origin: ReferenceOrigin): string {
  try {
    return decodeURIComponent(reference);
  } catch (cause) {
    throw unsafe(
      origin,
      JSON.stringify(reference),
      'is not a valid percent-encoded URI path',
      cause,
    );
  }
}

function unsafe(
  origin: ReferenceOrigin,
  shown: string,
  problem: string,
  cause?: unknown,
): UnsafePathError {
  return new UnsafePathError(
    `${origin.root}: ${origin.entry} holds the path ${shown}, which ${problem}; every path stored there must lie under the root, so nothing was read. The entry was written wrongly or tampered with: restore it from a backup.`,
    { cause },
  );
}
