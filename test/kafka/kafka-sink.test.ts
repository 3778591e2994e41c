/**
 * The Kafka sink on the mock cluster: records land with their keys, values, partitions and headers;
 * every record carries sluice.queryId, sluice.batchId and sluice.seq, so that a consumer that keeps
 * the first record of each triple reads exactly the batch result even when a crash between the sink
 * and the commit wrote a batch twice; the producer lives as long as the query; the output is checked
 * against Spark's Kafka sink schema when the query starts.
 */
import { afterAll, describe, expect, inject, it } from 'vitest';
import {
  AnalysisError,
  col,
  concat,
  type DataFrame,
  FileCheckpointStore,
  InvalidOptionError,
  lit,
  MemoryObjectStore,
  type MemoryStream,
  type OutputMode,
  type RowObject,
  SluiceSession,
} from '../../core/index.js';
import { KafkaSink, kafkaSinkOptions, kafkajsWriter } from '../../core/kafka/index.js';
import { closeKafkaConnections } from '../../core/kafka/kafka-connection-pool.js';
import { tempDir } from '../support/temp-dir.js';
import { uniqueName } from '../support/unique-name.js';

const SERVERS = () => inject('kafkaBootstrapServers');

// the bounded reads that check the topics share the process's connections
afterAll(() => closeKafkaConnections());

/** The records of `topic`, as a bounded read with headers gives them, with text for bytes. */
async function readTopic(topic: string) {
  const rows = await new SluiceSession().read
    .format('kafka')
    .option('kafka.bootstrap.servers', SERVERS())
    .option('subscribe', topic)
    .option('includeHeaders', 'true')
    .load()
    .collect();
  return rows.map((r) => ({
    key: text(r.key),
    value: text(r.value),
    topic: r.topic as string,
    partition: r.partition as number,
    offset: r.offset as number,
    headers: (r.headers as { key: string; value: Uint8Array | null }[]).map(
      (h) => [h.key, text(h.value)] as const,
    ),
  }));
}

type ReadRecord = Awaited<ReturnType<typeof readTopic>>[number];

const text = (v: unknown): string | null =>
  v === null ? null : Buffer.from(v as Uint8Array).toString();

/** A record's header value by key (the last one with that key). */
const header = (r: ReadRecord, key: string) => r.headers.filter(([k]) => k === key).at(-1)?.[1];

/** What a deduplicating consumer keeps: the first record of each (queryId, batchId, seq). */
function deduplicated(records: readonly ReadRecord[]): ReadRecord[] {
  const seen = new Set<string>();
  return records.filter((r) => {
    const id = JSON.stringify(
      ['sluice.queryId', 'sluice.batchId', 'sluice.seq'].map((k) => header(r, k)),
    );
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

/** Starts `df` into the Kafka sink with these options on `checkpoint`. */
function startKafka(
  df: DataFrame,
  options: Record<string, string | number>,
  checkpoint = tempDir(),
  mode: OutputMode = 'append',
) {
  const writer = df.writeStream
    .format('kafka')
    .outputMode(mode)
    .option('kafka.bootstrap.servers', SERVERS())
    .option('checkpointLocation', checkpoint);
  for (const [key, value] of Object.entries(options)) writer.option(key, value);
  return writer.start();
}

/** Adds each chunk and waits until the query has processed it; then stops the query. */
async function feed(
  query: Awaited<ReturnType<typeof startKafka>>,
  input: MemoryStream,
  chunks: RowObject[][],
) {
  for (const chunk of chunks) {
    input.addData(chunk);
    await query.processAllAvailable();
  }
  await query.stop();
}

describe('the Kafka sink', () => {
  it("writes keys, values, partitions and headers, with the sluice.* headers after the row's own", async () => {
    const topic = uniqueName('sink');
    const session = new SluiceSession();
    const input = session.memoryStream(
      'key STRING, value STRING, partition INT, headers ARRAY<STRUCT<key: STRING, value: BINARY>>',
    );
    const query = await startKafka(session.readStream.memory(input), { topic });
    const trace = (v: string) => [{ key: 'trace', value: Buffer.from(v) }];
    await feed(query, input, [
      [
        { key: 'a', value: 'first', partition: 2, headers: trace('t1') },
        { key: null, value: 'second', partition: 0, headers: [] },
      ],
      [{ key: 'c', value: null, partition: 3, headers: [{ key: 'empty', value: null }] }],
    ]);
    const records = (await readTopic(topic)).sort((a, b) => a.partition - b.partition);
    expect(records.map((r) => [r.partition, r.key, r.value, r.headers])).toEqual([
      [0, null, 'second', sluiceHeaders(query.id, 0, 1)],
      [2, 'a', 'first', [['trace', 't1'], ...sluiceHeaders(query.id, 0, 0)]],
      [3, 'c', null, [['empty', ''], ...sluiceHeaders(query.id, 1, 0)]],
    ]);
  });

  it("sends each row to its topic column's topic, unless option topic overrides it (as in Spark)", async () => {
    const [one, two, fixed] = [uniqueName('one'), uniqueName('two'), uniqueName('fixed')];
    const session = new SluiceSession();
    const input = session.memoryStream('topic STRING, value BINARY');
    const rows = [
      { topic: one, value: Buffer.from('x') },
      { topic: two, value: Buffer.from('y') },
    ];
    await feed(await startKafka(session.readStream.memory(input), {}), input, [rows]);
    expect((await readTopic(one)).map((r) => r.value)).toEqual(['x']);
    expect((await readTopic(two)).map((r) => r.value)).toEqual(['y']);
    const overriding = new SluiceSession();
    const again = overriding.memoryStream('topic STRING, value BINARY');
    await feed(await startKafka(overriding.readStream.memory(again), { topic: fixed }), again, [
      rows,
    ]);
    expect((await readTopic(fixed)).map((r) => r.value).sort()).toEqual(['x', 'y']);
  });

  it('keeps the order of a batch within each partition when it is sent in many requests', async () => {
    const topic = uniqueName('order');
    const session = new SluiceSession();
    const input = session.memoryStream('key STRING, value STRING');
    const query = await startKafka(session.readStream.memory(input), {
      topic,
      'kafka.max.request.size': 500,
    });
    const rows = Array.from({ length: 120 }, (_, i) => ({ key: `k${i % 5}`, value: `v${i}` }));
    await feed(query, input, [rows]);
    const records = await readTopic(topic);
    expect(records).toHaveLength(120);
    for (const key of ['k0', 'k1', 'k2', 'k3', 'k4']) {
      const ofKey = records.filter((r) => r.key === key).sort((a, b) => a.offset - b.offset);
      expect(new Set(ofKey.map((r) => r.partition)).size).toBe(1);
      const seqs = ofKey.map((r) => Number(header(r, 'sluice.seq')));
      expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
      expect(ofKey.map((r) => r.value)).toEqual(seqs.map((s) => `v${s}`));
    }
  });

  it('compresses record batches with gzip when kafka.compression.type says so, and refuses codecs it lacks', async () => {
    const topic = uniqueName('gzip');
    const session = new SluiceSession();
    const input = session.memoryStream('key STRING, value STRING');
    const query = await startKafka(session.readStream.memory(input), {
      topic,
      'kafka.compression.type': 'GZIP',
    });
    const rows = Array.from({ length: 50 }, (_, i) => ({ key: `k${i % 3}`, value: `v${i}` }));
    await feed(query, input, [rows]);
    expect((await readTopic(topic)).map((r) => r.value).sort()).toEqual(
      rows.map((r) => r.value).sort(),
    );
    const options = (type: string) =>
      kafkaSinkOptions(
        new Map([
          ['kafka.bootstrap.servers', SERVERS()],
          ['kafka.compression.type', type],
        ]),
      );
    expect(options('gzip').compression).toBe('gzip');
    expect(() => options('zstd')).toThrow(InvalidOptionError);
    expect(() => options('snappy')).toThrow(/kafka.compression.type='snappy': use none or gzip/);
  });

  for (const crashStep of ['sink', 'commit'] as const) {
    it(`gives a deduplicating consumer exactly the batch result after a crash right after '${crashStep}'`, async () => {
      const topic = uniqueName('crash');
      const checkpoint = tempDir();
      const session = new SluiceSession();
      const input = session.memoryStream('user STRING, page STRING');
      const df = session.readStream
        .memory(input)
        .select(
          col('user').alias('key'),
          concat(col('user'), lit(' saw '), col('page')).alias('value'),
        );
      const first = await df.writeStream
        .format('kafka')
        .option('kafka.bootstrap.servers', SERVERS())
        .option('topic', topic)
        .option('checkpointLocation', checkpoint)
        .afterStep((step, batchId) => {
          if (step === crashStep && batchId === 1) throw new Error(`died after ${step}`);
        })
        .start();
      const chunks = [0, 1, 2].map((c) =>
        Array.from({ length: 6 }, (_, i) => ({ user: `u${i}`, page: `p${c}` })),
      );
      input.addData(chunks[0]);
      await first.processAllAvailable();
      input.addData(chunks[1]);
      await expect(first.processAllAvailable()).rejects.toThrow(`died after ${crashStep}`);
      const restarted = await startKafka(df, { topic }, checkpoint);
      await feed(restarted, input, [[], chunks[2]]);

      const records = await readTopic(topic);
      const expected = chunks
        .flat()
        .map((e) => `${e.user} saw ${e.page}`)
        .sort();
      expect(
        deduplicated(records)
          .map((r) => r.value)
          .sort(),
      ).toEqual(expected);
      // the batch the crash interrupted after its sink step was written twice, identically
      expect(records.length).toBe(expected.length + (crashStep === 'sink' ? 6 : 0));
      const batch1 = records.filter((r) => header(r, 'sluice.batchId') === '1');
      const copies = new Map<string | null | undefined, string[]>();
      for (const r of batch1) {
        const seq = header(r, 'sluice.seq');
        copies.set(seq, [
          ...(copies.get(seq) ?? []),
          JSON.stringify([r.key, r.value, r.partition]),
        ]);
      }
      expect(copies.size).toBe(6);
      for (const written of copies.values()) {
        expect(written).toHaveLength(crashStep === 'sink' ? 2 : 1);
        expect(new Set(written).size).toBe(1);
      }
      expect(new Set(records.map((r) => header(r, 'sluice.queryId')))).toEqual(
        new Set([restarted.id]),
      );
    });
  }

  it('keeps one producer for all batches of a query and closes it when the query stops', async () => {
    const topic = uniqueName('reuse');
    const events: string[] = [];
    const sink = countingSink(topic, events);
    const session = new SluiceSession();
    const input = session.memoryStream('value STRING');
    const query = await session.readStream
      .memory(input)
      .writeStream.sink(sink)
      .option('checkpointLocation', tempDir())
      .start();
    await feed(query, input, [
      [{ value: 'a' }],
      [{ value: 'b' }, { value: 'c' }],
      [{ value: 'd' }],
    ]);
    expect(events).toEqual(['create', 'send 1', 'send 2', 'send 1', 'close']);
    expect((await readTopic(topic)).map((r) => r.value).sort()).toEqual(['a', 'b', 'c', 'd']);
  });

  it('closes the producer when a serverless invocation ends, and connects again in the next', async () => {
    const topic = uniqueName('invocations');
    const events: string[] = [];
    const sink = countingSink(topic, events);
    const store = new MemoryObjectStore();
    const session = new SluiceSession();
    const input = session.memoryStream('value STRING');
    const writer = session.readStream
      .memory(input)
      .writeStream.sink(sink)
      .checkpoint({ checkpoint: new FileCheckpointStore(store), stateObjects: store });
    for (const value of ['a', 'b']) {
      input.addData([{ value }]);
      const result = await writer.runInvocation({ remainingMs: () => 60_000 });
      expect(result.batches).toHaveLength(1);
    }
    expect(events).toEqual(['create', 'send 1', 'close', 'create', 'send 1', 'close']);
    expect((await readTopic(topic)).map((r) => r.value).sort()).toEqual(['a', 'b']);
  });

  it("refuses at start an output that does not fit Spark's Kafka sink schema, and missing options", async () => {
    const session = new SluiceSession();
    const stream = (schema: string) => session.readStream.memory(session.memoryStream(schema));
    await expect(startKafka(stream('payload STRING'), { topic: 't' })).rejects.toThrow(
      "the query's output has no column 'value'",
    );
    await expect(startKafka(stream('value STRING'), {})).rejects.toThrow(
      "no topic to write to; set option('topic', name), or give each row a topic column",
    );
    await expect(startKafka(stream('value LONG'), { topic: 't' })).rejects.toThrow(AnalysisError);
    await expect(
      startKafka(stream('value STRING, partition STRING'), { topic: 't' }),
    ).rejects.toThrow('column partition is string, but the Kafka sink needs int');
    await expect(
      startKafka(stream('value STRING, headers ARRAY<STRING>'), { topic: 't' }),
    ).rejects.toThrow('array<struct<key:string,value:binary>>');
    await expect(
      stream('value STRING')
        .writeStream.format('kafka')
        .option('topic', 't')
        .option('checkpointLocation', tempDir())
        .start(),
    ).rejects.toThrow(InvalidOptionError);
  });
});

function sluiceHeaders(queryId: string, batchId: number, seq: number) {
  return [
    ['sluice.queryId', queryId],
    ['sluice.batchId', String(batchId)],
    ['sluice.seq', String(seq)],
  ];
}

/** A Kafka sink to `topic` on kafkajs whose writer reports creation, sends and closing to `events`. */
function countingSink(topic: string, events: string[]): KafkaSink {
  return new KafkaSink(
    kafkaSinkOptions(
      new Map([
        ['kafka.bootstrap.servers', SERVERS()],
        ['topic', topic],
      ]),
    ),
    (options) => {
      events.push('create');
      const writer = kafkajsWriter(options);
      return {
        send: async (records) => {
          events.push(`send ${records.length}`);
          await writer.send(records);
        },
        close: async () => {
          events.push('close');
          await writer.close();
        },
      };
    },
  );
}
