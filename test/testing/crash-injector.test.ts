/**
 * CrashInjector and the crashing decorators: every awaited call passes two crash points (before it is
 * made, after it took effect), the crash at point k stops everything after it, and a pause holds the
 * call until it is resumed.
 */
import { describe, expect, it } from 'vitest';
import {
  FileCheckpointStore,
  MemoryObjectStore,
  MemorySink,
  MemoryStream,
  type Offset,
  type Source,
} from '../../core/index.js';
import {
  CrashInjector,
  crashingCheckpointStore,
  crashingKafkaWriter,
  crashingObjectStore,
  crashingSink,
  crashingSource,
  InjectedCrashPoint,
} from '../../core/testing/index.js';
import { field, IntegerType, struct } from '../../core/types/data-types.js';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('CrashInjector with a crashing object store', () => {
  it('counts two points per call, in the order the calls are made', async () => {
    const injector = new CrashInjector();
    const store = crashingObjectStore(new MemoryObjectStore(), injector, 'state');
    await store.put('a', bytes('1'));
    await store.get('a');
    await store.list('');
    expect(injector.points).toBe(6);
    expect(injector.crashed).toBeUndefined();
  });

  it('crashes before the call at an even point: the call never happens', async () => {
    const inner = new MemoryObjectStore();
    const injector = new CrashInjector({ crashAt: 2 });
    const store = crashingObjectStore(inner, injector, 'state');
    await store.put('a', bytes('1'));
    const crash = await store.put('b', bytes('2')).catch((e: unknown) => e);
    expect(crash).toBeInstanceOf(InjectedCrashPoint);
    expect((crash as InjectedCrashPoint).label).toBe('state.put(b) before');
    expect(await inner.list('')).toEqual(['a']);
  });

  it('crashes after the call at an odd point: the write took effect, its caller never learns so', async () => {
    const inner = new MemoryObjectStore();
    const store = crashingObjectStore(inner, new CrashInjector({ crashAt: 1 }), 'output');
    await expect(store.putIfAbsent('a', bytes('1'))).rejects.toThrow(
      /crash point 1 \(output.putIfAbsent\(a\) after\)/,
    );
    expect(await inner.get('a')).toEqual(bytes('1'));
  });

  it('stays dead after the crash: later calls through any decorator of the injector fail untouched', async () => {
    const inner = new MemoryObjectStore();
    const injector = new CrashInjector({ crashAt: 0 });
    const state = crashingObjectStore(inner, injector, 'state');
    const output = crashingObjectStore(inner, injector, 'output');
    await expect(state.get('x')).rejects.toBeInstanceOf(InjectedCrashPoint);
    // a caller that swallows the first crash (a best-effort write) still cannot go on
    await expect(output.put('y', bytes('1'))).rejects.toBe(injector.crashed);
    expect(await inner.list('')).toEqual([]);
    expect(injector.points).toBe(1);
  });

  it('holds the call at the pause point until resumed', async () => {
    const inner = new MemoryObjectStore();
    const injector = new CrashInjector({ pauseAt: 0 });
    const store = crashingObjectStore(inner, injector, 'state');
    const put = store.put('a', bytes('1'));
    await injector.paused;
    expect(await inner.get('a')).toBeUndefined();
    injector.resume();
    await put;
    expect(await inner.get('a')).toEqual(bytes('1'));
  });
});

describe('the crashing checkpoint store, sink and Kafka writer', () => {
  it('name each checkpoint request with its batch, so a crash point can be read from its label', async () => {
    const labels: string[] = [];
    const injector = new CrashInjector({ crashAt: 3, onCrash: (_, label) => labels.push(label) });
    const store = crashingCheckpointStore(
      new FileCheckpointStore(new MemoryObjectStore()),
      injector,
    );
    const intent = {
      formatVersion: 1,
      batchId: 0,
      start: [null],
      end: [1],
      batchTimestampMs: 0,
      watermarkMicros: null,
    };
    await store.putIntent(intent);
    await expect(store.getIntent(0)).rejects.toBeInstanceOf(InjectedCrashPoint);
    expect(labels).toEqual(['checkpoint.getIntent(0) after']);
  });

  it('crash a sink after its batch is written, and a Kafka send after the brokers have it', async () => {
    const schema = struct([]);
    const memory = new MemorySink(schema, 'out');
    const sink = crashingSink(memory, new CrashInjector({ crashAt: 1 }));
    await expect(sink.addBatch(0, [[]], schema, 'append')).rejects.toThrow(
      /sink.addBatch\(0\) after/,
    );
    expect(memory.engineRows()).toHaveLength(1);

    const sent: unknown[] = [];
    const writer = crashingKafkaWriter(
      { send: async (records) => void sent.push(...records), close: async () => undefined },
      new CrashInjector({ crashAt: 1 }),
    );
    const record = { topic: 't', partition: 0, key: null, value: 'v', headers: [] };
    await expect(writer.send([record])).rejects.toBeInstanceOf(InjectedCrashPoint);
    expect(sent).toEqual([record]);
  });
});

describe('the crashing source', () => {
  /** A MemoryStream holding rows 1 and 2 that also records the offsets it was told were committed. */
  const committingStream = () => {
    const stream = new MemoryStream(struct([field('n', IntegerType)]));
    stream.addData([{ n: 1 }, { n: 2 }]);
    const committed: Offset[] = [];
    const source: Source = Object.assign(Object.create(stream) as Source, {
      commit: async (end: Offset) => void committed.push(end),
    });
    return { source, committed };
  };

  it('passes two points at each fetch, named for the call, and keeps what the source reports', async () => {
    const labels: string[] = [];
    const injector = new CrashInjector({ crashAt: 7, onCrash: (_, label) => labels.push(label) });
    const { source } = committingStream();
    const crashing = crashingSource(source, injector);
    const context = { batchTimestampMs: 0 };
    const end = await crashing.latestOffset(undefined, context);
    expect(end).toBe(2);
    expect(await crashing.getBatch(undefined, 2)).toEqual([[1], [2]]);
    expect(await crashing.backlog!(2)).toBe(0);
    expect(crashing).toMatchObject({ schema: source.schema, description: 'MemoryStream[memory]' });
    await expect(crashing.commit!(2)).rejects.toBeInstanceOf(InjectedCrashPoint);
    expect(labels).toEqual(['source.commit() after']);
    expect(injector.points).toBe(8);
  });

  it('crashes before a fetch at an even point (never made) and after it at an odd one (it took effect)', async () => {
    const before = committingStream();
    await expect(
      crashingSource(before.source, new CrashInjector({ crashAt: 0 })).commit!(2),
    ).rejects.toThrow(/source.commit\(\) before/);
    expect(before.committed).toEqual([]);

    const after = committingStream();
    await expect(
      crashingSource(after.source, new CrashInjector({ crashAt: 1 })).commit!(2),
    ).rejects.toThrow(/source.commit\(\) after/);
    expect(after.committed).toEqual([2]);
  });

  it('leaves out the optional calls the source does not have', () => {
    const stream = new MemoryStream(struct([field('n', IntegerType)]));
    const crashing = crashingSource(stream, new CrashInjector());
    expect(crashing.commit).toBeUndefined();
    expect(crashing.stop).toBeUndefined();
    expect(crashing.prepareForAvailableNow).toBeUndefined();
  });
});
