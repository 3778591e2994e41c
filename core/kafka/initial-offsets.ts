/**
 * The offsets a Kafka stream starts from, fixed once for the life of its checkpoint, as Spark writes
 * them to the checkpoint's source metadata. Resolving `latest` (or `earliest`, under retention) again
 * after a restart, or in the next invocation, would give other offsets: records that arrived between
 * the two resolutions would be skipped, and a re-run of the first batch would read other records.
 *
 * Written create-if-absent: when two attempts race, both use the offsets of the one that won.
 * Format: `{"formatVersion":1,"offsets":{"clicks":{"0":42}}}`.
 */
import type { ObjectStore } from '../checkpoint/object-store.js';
import { CheckpointError } from '../errors.js';
import { checkpointedOffsets, type PartitionOffsets } from './partition-offsets.js';

const KEY = 'initial-offsets.json';
const FORMAT_VERSION = 1;

/** The starting offsets of one source, in the source's metadata store. */
export class InitialOffsets {
  private known: PartitionOffsets | undefined;

  constructor(
    private readonly store: ObjectStore,
    /** Names the source in errors. */
    private readonly source: string,
  ) {}

  /** The recorded offsets; on the first call of a new checkpoint, resolves and records them. */
  async getOrCreate(resolve: () => Promise<PartitionOffsets>): Promise<PartitionOffsets> {
    const recorded = await this.get();
    if (recorded) return recorded;
    const offsets = await resolve();
    const record = { formatVersion: FORMAT_VERSION, offsets };
    const created = await this.store.putIfAbsent(KEY, Buffer.from(JSON.stringify(record)));
    if (created === 'created') return (this.known = offsets);
    return (await this.get())!; // another attempt recorded its offsets first: they are the truth
  }

  /** The recorded offsets, read once per run; a batch that starts at the beginning needs them. */
  async required(): Promise<PartitionOffsets> {
    const recorded = await this.get();
    if (!recorded) {
      throw new CheckpointError(
        `${this.source}: ${this.store.location}/${KEY} is missing, but the checkpoint has a batch that starts from it; the checkpoint is damaged. Start the query on a new checkpointLocation.`,
      );
    }
    return recorded;
  }

  private async get(): Promise<PartitionOffsets | undefined> {
    if (this.known) return this.known;
    const bytes = await this.store.get(KEY);
    if (!bytes) return undefined;
    let record: { formatVersion?: unknown; offsets?: unknown } | null;
    try {
      record = JSON.parse(Buffer.from(bytes).toString('utf8')) as typeof record;
    } catch (e) {
      throw this.corrupt(e);
    }
    if (record?.formatVersion !== FORMAT_VERSION) throw this.corrupt();
    return (this.known = checkpointedOffsets(record.offsets, this.source));
  }

  private corrupt(cause?: unknown): CheckpointError {
    return new CheckpointError(
      `${this.source}: ${this.store.location}/${KEY} is corrupt or of an unknown format version (this Sluice reads version ${FORMAT_VERSION}).`,
      { cause },
    );
  }
}
