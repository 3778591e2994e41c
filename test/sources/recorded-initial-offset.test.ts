/**
 * A stream's initial offset is recorded once per checkpoint: the first attempt to resolve it wins,
 * every later one (a restart, a racing invocation) reads the recorded value.
 */
import { describe, expect, it } from 'vitest';
import { CheckpointError, MemoryObjectStore } from '../../core/index.js';
import {
  type InitialOffsetCodec,
  RecordedInitialOffset,
} from '../../core/sources/recorded-initial-offset.js';

const codec: InitialOffsetCodec<number> = {
  key: 'initial.json',
  encode: (n) => ({ n }),
  decode: (value) => {
    const n = (value as { n?: unknown } | null)?.n;
    if (typeof n !== 'number') throw new CheckpointError('not an offset');
    return n;
  },
};

describe('a recorded initial offset', () => {
  it('is resolved once; a restart and a racing attempt read the recorded value', async () => {
    const store = new MemoryObjectStore();
    const first = new RecordedInitialOffset(store, 'src', codec);
    const racing = new RecordedInitialOffset(store, 'src', codec);
    const [a, b] = await Promise.all([
      first.getOrCreate(async () => 7),
      racing.getOrCreate(async () => 9),
    ]);
    expect(a).toBe(b);
    const restarted = new RecordedInitialOffset(store, 'src', codec);
    expect(await restarted.getOrCreate(async () => 42)).toBe(a);
    expect(await restarted.required()).toBe(a);
  });

  it('is required by a batch that starts from it, naming the missing key', async () => {
    const recorded = new RecordedInitialOffset(new MemoryObjectStore(), 'KafkaSource[t]', codec);
    await expect(recorded.required()).rejects.toThrow(
      /KafkaSource\[t\]: .*initial\.json is missing/,
    );
  });

  it('fails with a CheckpointError when the record is damaged', async () => {
    const store = new MemoryObjectStore();
    await store.putIfAbsent('initial.json', new TextEncoder().encode('{"n":'));
    const recorded = new RecordedInitialOffset(store, 'src', codec);
    await expect(recorded.required()).rejects.toThrow(/initial\.json is not JSON/);
    const other = new MemoryObjectStore();
    await other.putIfAbsent('initial.json', new TextEncoder().encode('{"m":1}'));
    await expect(new RecordedInitialOffset(other, 'src', codec).required()).rejects.toBeInstanceOf(
      CheckpointError,
    );
  });
});
