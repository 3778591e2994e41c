/**
 * Trigger.Once and Trigger.AvailableNow against the per-trigger limits of each source, as in Spark:
 * Once reads everything available in one batch, ignoring the limits; availableNow reads what was
 * available when the query started, in as many batches as the limits need, and nothing that
 * arrives meanwhile.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import {
  type DataFrame,
  DeltaSink,
  type Sink,
  SluiceSession,
  type StreamingQuery,
  type Trigger,
} from '../../core/index.js';
import type { Row } from '../../core/types/row.js';
import { parseSchema } from '../../core/types/type-names.js';
import { clickSchema, at } from '../support/events.js';
import { produceToAllPartitions } from '../support/kafka-producer.js';
import { tempDir } from '../support/temp-dir.js';
import { uniqueName } from '../support/unique-name.js';

/** A sink that counts each batch's rows and, while the first batch is delivered, adds input. */
class InputDuringFirstBatch implements Sink {
  readonly description = 'InputDuringFirstBatch';
  readonly rowsPerBatch: number[] = [];

  constructor(private readonly addInput: () => Promise<void> | void = () => {}) {}

  async addBatch(batchId: number, rows: readonly Row[]): Promise<void> {
    if (batchId === 0) await this.addInput();
    this.rowsPerBatch.push(rows.length);
  }
}

/** Runs `df` with `trigger` until it stops by itself; the rows of each batch. */
async function runToEnd(df: DataFrame, trigger: Trigger, sink = new InputDuringFirstBatch()) {
  const query: StreamingQuery = await df.writeStream
    .trigger(trigger)
    .sink(sink)
    .option('checkpointLocation', tempDir())
    .start();
  await query.awaitTermination();
  return sink.rowsPerBatch;
}

function jsonFile(dir: string, name: string): void {
  writeFileSync(path.join(dir, name), '{"category":"a"}\n{"category":"b"}\n');
}

function fileStream(dir: string): DataFrame {
  return new SluiceSession().readStream
    .schema('category STRING')
    .option('maxFilesPerTrigger', 1)
    .json(dir);
}

function kafkaStream(topic: string): DataFrame {
  return new SluiceSession().readStream
    .format('kafka')
    .option('kafka.bootstrap.servers', inject('kafkaBootstrapServers'))
    .option('subscribe', topic)
    .option('startingOffsets', 'earliest')
    .option('maxOffsetsPerTrigger', 30)
    .load();
}

const deltaSchema = parseSchema('id LONG');

/** A Delta table that gets one version (one file of two rows) per `append`. */
function deltaTable() {
  const location = tempDir('sluice-delta-');
  const sink = new DeltaSink(location, { appId: 'writer' });
  let version = 0;
  return {
    location,
    append: () =>
      sink.addBatch(version++, [[2 * version], [2 * version + 1]], deltaSchema, 'append'),
    stream: () => new SluiceSession().readStream.delta(location, { maxFilesPerTrigger: 1 }),
  };
}

describe('Trigger.Once reads everything available in one batch, ignoring per-trigger limits', () => {
  it('of a file stream with maxFilesPerTrigger', async () => {
    const dir = tempDir();
    for (const name of ['a.json', 'b.json', 'c.json']) jsonFile(dir, name);
    expect(await runToEnd(fileStream(dir), { once: true })).toEqual([6]);
  });

  it('of a Kafka stream with maxOffsetsPerTrigger', async () => {
    const topic = uniqueName('once');
    await produceToAllPartitions(topic, 25);
    expect(await runToEnd(kafkaStream(topic), { once: true })).toEqual([100]);
  });

  it('of a Delta stream with maxFilesPerTrigger', async () => {
    const table = deltaTable();
    for (let i = 0; i < 3; i++) await table.append();
    expect(await runToEnd(await table.stream(), { once: true })).toEqual([6]);
  });
});

describe('availableNow reads what was available at the start, within the limits, then stops', () => {
  it('in a file stream: a file written during the run waits for the next run', async () => {
    const dir = tempDir();
    jsonFile(dir, 'a.json');
    jsonFile(dir, 'b.json');
    const sink = new InputDuringFirstBatch(() => jsonFile(dir, 'c.json'));
    expect(await runToEnd(fileStream(dir), { availableNow: true }, sink)).toEqual([2, 2]);
  });

  it('in a Kafka stream: records produced during the run wait for the next run', async () => {
    const topic = uniqueName('available-now');
    await produceToAllPartitions(topic, 10);
    const sink = new InputDuringFirstBatch(() => produceToAllPartitions(topic, 10));
    expect(await runToEnd(kafkaStream(topic), { availableNow: true }, sink)).toEqual([30, 10]);
  });

  it('in a Delta stream: a version committed during the run waits for the next run', async () => {
    const table = deltaTable();
    await table.append();
    await table.append();
    const sink = new InputDuringFirstBatch(() => table.append());
    expect(await runToEnd(await table.stream(), { availableNow: true }, sink)).toEqual([2, 2]);
  });

  it('in a source without limits (a memory stream): rows added during the run wait', async () => {
    const session = new SluiceSession();
    const events = session.memoryStream(clickSchema);
    events.addData([{ ts: at('10:00:00'), category: 'a', user: 'u' }]);
    const sink = new InputDuringFirstBatch(() => {
      events.addData([{ ts: at('10:01:00'), category: 'b', user: 'u' }]);
    });
    const df = session.readStream.memory(events);
    expect(await runToEnd(df, { availableNow: true }, sink)).toEqual([1]);
  });
});
