/**
 * The offsets a Kafka stream starts from, fixed once for the life of its checkpoint (see
 * recorded-initial-offset.ts). Format: `{"formatVersion":1,"offsets":{"clicks":{"0":42}}}`.
 */
import type { ObjectStore } from '../checkpoint/object-store.js';
import { CheckpointError } from '../errors.js';
import {
  type InitialOffsetCodec,
  RecordedInitialOffset,
} from '../sources/recorded-initial-offset.js';
import { checkpointedOffsets, type PartitionOffsets } from './partition-offsets.js';

const KEY = 'initial-offsets.json';
const FORMAT_VERSION = 1;

/** The recorded starting offsets of the Kafka source `source`, in its metadata store. */
export function initialOffsets(
  store: ObjectStore,
  source: string,
): RecordedInitialOffset<PartitionOffsets> {
  const codec: InitialOffsetCodec<PartitionOffsets> = {
    key: KEY,
    encode: (offsets) => ({ formatVersion: FORMAT_VERSION, offsets }),
    decode: (value) => {
      const record = value as { formatVersion?: unknown; offsets?: unknown } | null;
      if (record?.formatVersion !== FORMAT_VERSION) {
        throw new CheckpointError(
          `${source}: ${store.location}/${KEY} is corrupt or of an unknown format version (this Sluice reads version ${FORMAT_VERSION}).`,
        );
      }
      return checkpointedOffsets(record.offsets, source);
    },
  };
  return new RecordedInitialOffset(store, source, codec);
}
