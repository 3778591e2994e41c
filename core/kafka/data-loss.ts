/**
 * Data loss: offsets a batch must read that the partition no longer holds (retention deleted them
 * before the query read them), a partition whose offsets went back (the topic was deleted and created
 * again), or a partition that disappeared. With failOnDataLoss (the default) the batch fails with
 * this error before anything is committed, so nothing is skipped without the user's decision; the
 * message says how to go on.
 */
import { SourceError } from '../errors.js';
import { partitionName, type TopicPartition } from './partition-offsets.js';

/** What was lost. */
export type LostData =
  /** Offsets [start, end) of a partition that now holds [earliest, latest). */
  | {
      readonly kind: 'offsets';
      readonly partition: TopicPartition;
      readonly start: number;
      readonly end: number;
      readonly earliest: number;
      readonly latest: number;
    }
  /** A partition read up to `offset` that now ends at `latest`, before it. */
  | {
      readonly kind: 'reset';
      readonly partition: TopicPartition;
      readonly offset: number;
      readonly latest: number;
    }
  /** A partition read up to `offset` that no longer exists. */
  | { readonly kind: 'gone'; readonly partition: TopicPartition; readonly offset: number };

/** The error a batch fails with when `failOnDataLoss` is true. */
export function dataLossError(source: string, lost: LostData): SourceError {
  const tp = partitionName(lost.partition);
  let what: string;
  switch (lost.kind) {
    case 'offsets':
      what =
        `${tp}: the batch needs offsets [${lost.start}, ${lost.end}), but the partition now holds [${lost.earliest}, ${lost.latest})` +
        (lost.start < lost.earliest
          ? ': retention deleted records before the query read them'
          : ': the partition ends before them (was the topic deleted and created again?)');
      break;
    case 'reset':
      what = `${tp} was read up to offset ${lost.offset}, but now ends at offset ${lost.latest} (was the topic deleted and created again?)`;
      break;
    case 'gone':
      what = `partition ${tp}, read up to offset ${lost.offset}, no longer exists`;
      break;
  }
  return new SourceError(
    `${source}: data loss: ${what}. To skip what is lost and go on, restart the query with option failOnDataLoss=false (skipped offsets are counted in progress as lostOffsets); to keep records from being lost, raise the topic's retention or run the query more often.`,
  );
}
