/**
 * Where a stream starts, fixed once for the life of its checkpoint, as Spark writes it to a source's
 * checkpoint metadata. Resolving `latest` (or a table's current version) again after a restart, or
 * in the next invocation, would move the start: data that arrived between the two resolutions would
 * be skipped, and a re-run of the first batch would read other data.
 *
 * Written create-if-absent: when two attempts race, both use the offset of the one that won.
 */
import type { ObjectStore } from '../checkpoint/object-store.js';
import { CheckpointError } from '../errors.js';

/** How a source's initial offset is stored as JSON and read back. */
export interface InitialOffsetCodec<T> {
  /** The key in the source's metadata store. */
  readonly key: string;
  /** The JSON value stored for `offset`. */
  encode(offset: T): unknown;
  /** The offset a stored value holds; throws CheckpointError when it holds none. */
  decode(value: unknown): T;
}

/** The recorded initial offset of one source, in its metadata store. */
export class RecordedInitialOffset<T> {
  private known: T | undefined;

  constructor(
    private readonly store: ObjectStore,
    /** Names the source in errors. */
    private readonly source: string,
    private readonly codec: InitialOffsetCodec<T>,
  ) {}

  /** The recorded offset; on the first call of a new checkpoint, resolves and records it. */
  async getOrCreate(resolve: () => Promise<T>): Promise<T> {
    const recorded = await this.get();
    if (recorded !== undefined) return recorded;
    const offset = await resolve();
    const bytes = new TextEncoder().encode(JSON.stringify(this.codec.encode(offset)));
    const created = await this.store.putIfAbsent(this.codec.key, bytes);
    if (created === 'created') return (this.known = offset);
    return (await this.get())!; // another attempt recorded its offset first: it is the truth
  }

  /** The recorded offset, which a batch that starts at the beginning needs. */
  async required(): Promise<T> {
    const recorded = await this.get();
    if (recorded === undefined) {
      throw new CheckpointError(
        `${this.source}: ${this.location()} is missing, but the checkpoint has a batch that starts from it; the checkpoint is damaged. Start the query on a new checkpointLocation.`,
      );
    }
    return recorded;
  }

  private async get(): Promise<T | undefined> {
    if (this.known !== undefined) return this.known;
    const bytes = await this.store.get(this.codec.key);
    if (!bytes) return undefined;
    let value: unknown;
    try {
      value = JSON.parse(new TextDecoder().decode(bytes));
    } catch (cause) {
      throw new CheckpointError(
        `${this.source}: ${this.location()} is not JSON; the checkpoint is damaged. Start the query on a new checkpointLocation.`,
        { cause },
      );
    }
    return (this.known = this.codec.decode(value));
  }

  private location(): string {
    return `${this.store.location}/${this.codec.key}`;
  }
}
