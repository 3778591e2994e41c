/**
 * A process that runs one Kafka query to completion and then simply returns (kafka-connections.test.ts
 * runs it): it calls no `closeKafkaConnections()`, so it exits by itself only if no Kafka socket or
 * timer keeps Node alive. Arguments: brokers, topic, checkpoint directory. Prints `rows <n>`.
 */
import { MemorySink, SluiceSession } from '../../core/index.js';

const [brokers, topic, checkpoint] = process.argv.slice(2);
const df = new SluiceSession().readStream
  .format('kafka')
  .option('kafka.bootstrap.servers', brokers)
  .option('subscribe', topic)
  .option('startingOffsets', 'earliest')
  .load();
const sink = new MemorySink(df.schema);
const query = await df.writeStream
  .sink(sink)
  .option('checkpointLocation', checkpoint)
  .trigger({ availableNow: true })
  .start();
await query.awaitTermination();
console.log(`rows ${sink.rows().length}`);
