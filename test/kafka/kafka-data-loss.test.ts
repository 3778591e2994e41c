/**
 * Data loss for real: the mock cluster deletes a partition's oldest records once it holds more than
 * about 5 MB, as retention does, so a query that falls behind finds its next offsets gone.
 */
import { describe, expect, inject, it } from 'vitest';
import { MemorySink, SluiceSession, SourceError, type DataFrame } from '../../core/index.js';
import { overflowRetention, produce } from '../support/kafka-producer.js';
import { tempDir } from '../support/temp-dir.js';
import { uniqueName } from '../support/unique-name.js';

function kafka(
  reader: SluiceSession['read'] | SluiceSession['readStream'],
  options: Record<string, string>,
): DataFrame {
  return reader
    .format('kafka')
    .option('kafka.bootstrap.servers', inject('kafkaBootstrapServers'))
    .optionsFrom(options)
    .load();
}

async function runStream(topic: string, checkpoint: string, options: Record<string, string> = {}) {
  const df = kafka(new SluiceSession().readStream, {
    subscribe: topic,
    startingOffsets: 'earliest',
    ...options,
  });
  const sink = new MemorySink(df.schema, uniqueName('sink'));
  const query = await df.writeStream.sink(sink).option('checkpointLocation', checkpoint).start();
  const outcome = await query.processAllAvailable().then(
    () => undefined,
    (e: unknown) => e,
  );
  await query.stop();
  return { query, sink, outcome };
}

describe('offsets that retention deleted before the query read them', () => {
  it('fail the batch by default, naming the partition and the offsets; failOnDataLoss=false skips and counts them', async () => {
    const topic = uniqueName('loss');
    const checkpoint = tempDir();
    await produce(topic, [
      ...Array.from({ length: 5 }, (_, i) => ({ partition: 0, value: `small-${i}` })),
      { partition: 1, value: 'other' },
    ]);
    const first = await runStream(topic, checkpoint);
    expect(first.outcome).toBeUndefined();
    expect(first.sink.rows()).toHaveLength(6);

    const earliest = await overflowRetention(topic, 0); // offsets 5..74 written, the oldest deleted
    expect(earliest).toBeGreaterThan(5);

    const strict = await runStream(topic, checkpoint);
    expect(strict.outcome).toBeInstanceOf(SourceError);
    expect((strict.outcome as Error).message).toContain(
      `KafkaSource[${topic}]: data loss: ${topic}-0: the batch needs offsets [5, 75), but the partition now holds [${earliest}, 75): retention deleted records before the query read them.`,
    );
    expect(strict.sink.rows()).toEqual([]);

    // the same batch (its intent is kept) again, now tolerating the loss
    const lenient = await runStream(topic, checkpoint, { failOnDataLoss: 'false' });
    expect(lenient.outcome).toBeUndefined();
    const [progress] = lenient.query.recentProgress;
    expect(progress.batchId).toBe(1);
    expect(progress.numInputRows).toBe(75 - earliest);
    expect(progress.sources[0].metrics).toMatchObject({ lostOffsets: earliest - 5 });
    expect(lenient.sink.rows().map((r) => r.offset)).toEqual(
      Array.from({ length: 75 - earliest }, (_, i) => earliest + i),
    );
  });

  it('fail a bounded read that starts before them, unless failOnDataLoss=false', async () => {
    const topic = uniqueName('bounded-loss');
    const earliest = await overflowRetention(topic, 2);
    const from = JSON.stringify({ [topic]: { 0: -2, 1: -2, 2: 0, 3: -2 } });
    const strict = kafka(new SluiceSession().read, { subscribe: topic, startingOffsets: from });
    await expect(strict.collect()).rejects.toThrow(
      `${topic}-2: the batch needs offsets [0, 70), but the partition now holds [${earliest}, 70)`,
    );
    const lenient = kafka(new SluiceSession().read, {
      subscribe: topic,
      startingOffsets: from,
      failOnDataLoss: 'false',
    });
    expect(await lenient.count()).toBe(70 - earliest);
  });
});
