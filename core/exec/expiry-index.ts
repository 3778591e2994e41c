/**
 * Entries ordered by expiry time, kept in one state store so that finding what expired reads only
 * what expired (and its bucket), never every key: a processor's timers, and its TTL values.
 *
 * The store is a hash map, so the order is kept in buckets: entry (time, id) lives in the bucket of
 * `floor(time / BUCKET_MS)`, a map under key `b<bucket>`; the key `buckets` holds the sorted list of
 * buckets that have entries. Finding the entries due before T walks buckets from the first while
 * they start before T. Values read from the store are never changed in place (a batch must not
 * mutate the version it was loaded from): a bucket is copied the first time a batch changes it.
 */
import { copyStateValue } from '../state/state-value.js';
import type { StateStore } from '../state/state-store.js';

/** One minute of expiry times per bucket: timers a minute apart touch different buckets. */
const BUCKET_MS = 60_000;
const BUCKET_LIST = 'buckets';

/** An entry of the index: its time, its id (unique per time) and what it carries. */
export interface ExpiryEntry {
  readonly timeMs: number;
  readonly id: string;
  readonly payload: unknown;
}

type Bucket = Map<string, [number, string, unknown]>;

/** An index of entries by expiry time over `store`, for one batch. */
export class ExpiryIndex {
  /** The store keys this batch has copied already, so it may change them in place. */
  private readonly owned = new Set<string>();

  constructor(private readonly store: StateStore) {}

  /** Adds (or replaces) entry `id` at `timeMs`. */
  add(timeMs: number, id: string, payload: unknown): void {
    const bucket = Math.floor(timeMs / BUCKET_MS);
    const entries = this.bucket(bucket) ?? new Map();
    if (entries.size === 0) this.addBucket(bucket);
    entries.set(entryKey(timeMs, id), [timeMs, id, payload]);
    this.putOwned(bucketKey(bucket), entries);
  }

  /** Removes entry `id` at `timeMs` (a no-op when there is none). */
  remove(timeMs: number, id: string): void {
    const bucket = Math.floor(timeMs / BUCKET_MS);
    const entries = this.bucket(bucket);
    if (!entries?.delete(entryKey(timeMs, id))) return;
    if (entries.size > 0) return this.putOwned(bucketKey(bucket), entries);
    this.store.remove(bucketKey(bucket));
    const buckets = this.ownedBuckets().filter((b) => b !== bucket);
    if (buckets.length === 0) this.store.remove(BUCKET_LIST);
    else this.putOwned(BUCKET_LIST, buckets);
  }

  /** The entries whose time is before `beforeMs`, ordered by time, then id. */
  dueBefore(beforeMs: number): ExpiryEntry[] {
    const due: ExpiryEntry[] = [];
    for (const bucket of this.bucketList()) {
      if (bucket * BUCKET_MS >= beforeMs) break;
      for (const [timeMs, id, payload] of this.readBucket(bucket).values())
        if (timeMs < beforeMs) due.push({ timeMs, id, payload });
    }
    return due.sort((a, b) => a.timeMs - b.timeMs || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  /** The earliest time of any entry, or undefined when there is none. */
  earliest(): number | undefined {
    const first = this.bucketList()[0];
    if (first === undefined) return undefined;
    let min = Infinity;
    for (const [timeMs] of this.readBucket(first).values()) min = Math.min(min, timeMs);
    return min;
  }

  private bucketList(): readonly number[] {
    return (this.store.get(BUCKET_LIST) as number[] | undefined) ?? [];
  }

  private readBucket(bucket: number): Bucket {
    return (this.store.get(bucketKey(bucket)) as Bucket | undefined) ?? new Map();
  }

  /** Bucket `bucket`, owned by this batch (copied on first use), or undefined when it is empty. */
  private bucket(bucket: number): Bucket | undefined {
    const key = bucketKey(bucket);
    const stored = this.store.get(key) as Bucket | undefined;
    if (!stored) return undefined;
    return this.owned.has(key) ? stored : copyStateValue(stored);
  }

  private ownedBuckets(): number[] {
    const list = this.bucketList();
    return this.owned.has(BUCKET_LIST) ? (list as number[]) : [...list];
  }

  private addBucket(bucket: number): void {
    const buckets = this.ownedBuckets();
    let i = buckets.length;
    while (i > 0 && buckets[i - 1] > bucket) i--;
    if (buckets[i - 1] !== bucket) buckets.splice(i, 0, bucket);
    this.putOwned(BUCKET_LIST, buckets);
  }

  private putOwned(key: string, value: unknown): void {
    this.owned.add(key);
    this.store.put(key, value);
  }
}

function bucketKey(bucket: number): string {
  return `b${bucket}`;
}

function entryKey(timeMs: number, id: string): string {
  return `${timeMs}|${id}`;
}
