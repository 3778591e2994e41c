/**
 * Where one chaos seed keeps what outlives an invocation: its input files, its checkpoint and state,
 * and its sink's output, on one backend. Each invocation gets the parts anew (new store objects, new
 * clients, so nothing is cached), every part wrapped in the crash points of that invocation's
 * injector; afterwards the world reads the sink's output back as rows.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DynamoDBClient, ScanCommand } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { DynamoDbCheckpointStore } from '../../core/aws/dynamodb-checkpoint-store.js';
import { DynamoDbSink } from '../../core/aws/dynamodb-sink.js';
import { S3ObjectStore } from '../../core/aws/s3-object-store.js';
import {
  type CheckpointBackend,
  DeltaSink,
  FileCheckpointStore,
  FileSink,
  LocalDirectoryStore,
  MemoryObjectStore,
  type ObjectStore,
  type RowObject,
  type Sink,
  SluiceSession,
} from '../../core/index.js';
import type { KafkaRecordWriter, OutgoingRecord } from '../../core/kafka/kafka-record-writer.js';
import { KafkaSink, kafkajsWriter } from '../../core/kafka/kafka-sink.js';
import { kafkaSinkOptions } from '../../core/kafka/kafka-sink-options.js';
import {
  type CrashInjector,
  crashingCheckpointStore,
  crashingKafkaWriter,
  crashingObjectStore,
} from '../../core/testing/index.js';
import { crashingAwsClient } from './crashing-aws-client.js';
import {
  createLocalBucket,
  createLocalCheckpointTable,
  localDynamoClient,
  localS3Client,
} from './local-aws-clients.js';
import { uniqueName } from './unique-name.js';
import { seededRandom } from '../../examples/seeded-random.js';

/** The partitions the mock cluster gives a topic it creates on first use. */
const MOCK_TOPIC_PARTITIONS = 4;

/** Where checkpoint, state, input and output live: in memory, in local directories, on DynamoDB Local + s3rver. */
export type ChaosBackend = 'memory' | 'local' | 'aws';
/** The sink a seed writes to. */
export type ChaosSinkKind = 'delta' | 'files' | 'kafka' | 'dynamodb';
/** Where a seed's input is: JSON-lines files in the world's input store, or a Kafka topic. */
export type ChaosSourceKind = 'files' | 'kafka';

/** A topic on the Kafka mock cluster holding a seed's input, one JSON event per record. */
export interface ChaosInputTopic {
  readonly brokers: string;
  readonly topic: string;
}

/**
 * Where the local services answer: DynamoDB Local and s3rver (the aws backend and the dynamodb sink
 * need them) and the Kafka mock cluster (the kafka sink writes there on the aws backend, to a topic
 * in memory on the others).
 */
export interface ChaosAwsEndpoints {
  readonly dynamoDbEndpoint: string;
  readonly s3Endpoint: string;
  readonly kafkaBootstrapServers?: string;
}

/** What one invocation runs on. */
export interface InvocationParts {
  readonly backend: CheckpointBackend;
  readonly input: ObjectStore;
  readonly sink: Sink;
  /** Destroys the invocation's clients. */
  readonly close: () => void;
}

/** The rows of a sink's output, as a reader of it sees them. */
export type SinkOutput = readonly RowObject[];

/** One seed's durable world. */
export interface ChaosWorld {
  /** The parts of a new invocation, crashed by `injector`. */
  parts(injector: CrashInjector): InvocationParts;
  /** The sink's output as rows (for Kafka: the records kept after dropping duplicates by headers). */
  output(schemaDdl: string): Promise<SinkOutput>;
  /** The directory of a local world, which another process can reopen. */
  readonly root?: string;
  /** The topic holding the input of a world whose source is Kafka. */
  readonly inputTopic?: ChaosInputTopic;
  /** Removes what the world made on disk. */
  dispose(): Promise<void>;
}

/** A world whose objects are byte stores: memory, local directories or S3 prefixes. */
interface Stores {
  /** A store for `area` ('input', 'checkpoint', 'output'), new on every call. */
  readonly store: (area: string, clients: AwsClients | undefined) => ObjectStore;
  /** The checkpoint over a state store, new on every call. */
  readonly checkpoint: (state: ObjectStore, clients: AwsClients | undefined) => CheckpointBackend;
  readonly dispose: () => void;
  /** The directory of a local world. */
  readonly root?: string;
}

interface AwsClients {
  readonly dynamo: DynamoDBClient;
  readonly s3: ReturnType<typeof localS3Client>;
}

/** What a world is made of. */
export interface ChaosWorldSetting {
  /** Picks the partitions of a Kafka source's records. @default 0 */
  readonly seed?: number;
  readonly backend: ChaosBackend;
  readonly sink: ChaosSinkKind;
  /** Where the input files' events go: into the input store, or to a new topic. @default 'files' */
  readonly source?: ChaosSourceKind;
  /** The input files to write; absent when reopening a world another process made. */
  readonly files?: ReadonlyMap<string, string>;
  readonly aws?: ChaosAwsEndpoints;
  /** The directory of a local world (one another process made, to reopen it). @default a new one */
  readonly root?: string;
}

/** Creates a world (or, with `root` and no `files`, reopens a local one) and writes its input files. */
export async function chaosWorld(setting: ChaosWorldSetting): Promise<ChaosWorld> {
  const { backend, sink: sinkKind, aws } = setting;
  const needsAws = backend === 'aws' || sinkKind === 'dynamodb';
  if (needsAws && !aws) {
    throw new Error(`the ${backend} backend with the ${sinkKind} sink needs AWS endpoints`);
  }
  if (setting.source === 'kafka' && !aws?.kafkaBootstrapServers) {
    throw new Error('a Kafka source needs the Kafka mock cluster: pass kafkaBootstrapServers');
  }
  const stores = await storesOf(backend, aws, setting.root);
  const writing = backend === 'aws' ? awsClients(aws!) : undefined;
  const toTopic = setting.source === 'kafka';
  const input = stores.store('input', writing);
  for (const [name, text] of toTopic ? [] : (setting.files ?? [])) {
    await input.put(name, new TextEncoder().encode(text));
  }
  writing?.dynamo.destroy();
  writing?.s3.destroy();
  const inputTopic =
    toTopic && setting.files
      ? await produceInput(aws!.kafkaBootstrapServers!, setting.seed ?? 0, setting.files)
      : undefined;
  const table = sinkKind === 'dynamodb' ? await createSinkTable(aws!) : undefined;
  const topic: OutgoingRecord[] = [];
  const brokers = backend === 'aws' ? aws!.kafkaBootstrapServers : undefined;
  const kafka = { brokers, topic: uniqueName('chaos-out'), memory: topic };
  return {
    root: stores.root,
    inputTopic,
    parts: (injector) => {
      const clients = backend === 'aws' ? awsClients(aws!) : undefined;
      const state = crashingObjectStore(stores.store('checkpoint', clients), injector, 'state');
      const { checkpoint, stateObjects } = stores.checkpoint(state, clients);
      const sinkClient = table
        ? crashingAwsClient(localDynamoClient(aws!.dynamoDbEndpoint), injector)
        : undefined;
      const output = crashingObjectStore(stores.store('output', clients), injector, 'output');
      const sink = sinkOf(sinkKind, output, injector, kafka, sinkClient, table);
      return {
        backend: { checkpoint: crashingCheckpointStore(checkpoint, injector), stateObjects },
        input: crashingObjectStore(stores.store('input', clients), injector, 'source'),
        sink,
        close: () => {
          clients?.dynamo.destroy();
          clients?.s3.destroy();
          sinkClient?.destroy();
        },
      };
    },
    output: async (schemaDdl) => {
      const clients = backend === 'aws' ? awsClients(aws!) : undefined;
      try {
        return await readOutput(
          sinkKind,
          stores.store('output', clients),
          schemaDdl,
          kafka,
          table === undefined ? undefined : { aws: aws!, table },
        );
      } finally {
        clients?.dynamo.destroy();
        clients?.s3.destroy();
      }
    },
    dispose: async () => stores.dispose(),
  };
}

function awsClients(aws: ChaosAwsEndpoints): AwsClients {
  return { dynamo: localDynamoClient(aws.dynamoDbEndpoint), s3: localS3Client(aws.s3Endpoint) };
}

async function storesOf(
  backend: ChaosBackend,
  aws: ChaosAwsEndpoints | undefined,
  given: string | undefined,
): Promise<Stores> {
  if (backend === 'memory') {
    const areas = new Map<string, MemoryObjectStore>();
    const store = (area: string) => {
      if (!areas.has(area)) areas.set(area, new MemoryObjectStore(`memory:${area}`));
      return areas.get(area)!;
    };
    return {
      store,
      checkpoint: (state) => ({ checkpoint: new FileCheckpointStore(state), stateObjects: state }),
      dispose: () => areas.clear(),
    };
  }
  if (backend === 'local') {
    const root = given ?? mkdtempSync(path.join(os.tmpdir(), 'sluice-chaos-'));
    return {
      root,
      store: (area) => new LocalDirectoryStore(path.join(root, area)),
      checkpoint: (state) => ({ checkpoint: new FileCheckpointStore(state), stateObjects: state }),
      dispose: () => rmSync(root, { recursive: true, force: true }),
    };
  }
  const endpoints = aws!;
  const [table, bucket] = await Promise.all([
    createLocalCheckpointTable(endpoints.dynamoDbEndpoint, uniqueName('chaos-checkpoints')),
    createLocalBucket(endpoints.s3Endpoint, uniqueName('chaos-state')),
  ]);
  const queryId = uniqueName('chaos-query');
  return {
    store: (area, clients) => new S3ObjectStore({ client: clients!.s3, bucket, prefix: area }),
    checkpoint: (state, clients) => ({
      checkpoint: new DynamoDbCheckpointStore({
        client: clients!.dynamo,
        tableName: table,
        queryId,
        largeRecords: state,
      }),
      stateObjects: state,
    }),
    dispose: () => undefined,
  };
}

/**
 * Produces the input files' events to a new topic of the mock cluster, file after file, each event
 * to a partition the seed picks at random, so each seed has other partitions and batch boundaries.
 */
async function produceInput(
  brokers: string,
  seed: number,
  files: ReadonlyMap<string, string>,
): Promise<ChaosInputTopic> {
  const topic = uniqueName('chaos-in');
  const random = seededRandom(seed * 31 + 7);
  const records = [...files.values()]
    .flatMap((text) => text.split('\n'))
    .map((line) => ({
      topic,
      partition: Math.floor(random() * MOCK_TOPIC_PARTITIONS),
      key: null,
      value: line,
      headers: [],
    }));
  const writer = kafkajsWriter(
    kafkaSinkOptions(
      new Map([
        ['kafka.bootstrap.servers', brokers],
        ['topic', topic],
      ]),
    ),
  );
  try {
    await writer.send(records);
  } finally {
    await writer.close();
  }
  return { brokers, topic };
}

/** Where the Kafka sink writes: a topic on the mock cluster, or in memory. */
interface ChaosKafka {
  readonly brokers: string | undefined;
  readonly topic: string;
  readonly memory: OutgoingRecord[];
}

/** The records of the sink's topic on the mock cluster, headers included. */
async function topicRecords(session: SluiceSession, kafka: ChaosKafka): Promise<OutgoingRecord[]> {
  const rows = await session.read
    .format('kafka')
    .option('kafka.bootstrap.servers', kafka.brokers!)
    .option('subscribe', kafka.topic)
    .option('includeHeaders', true)
    .load()
    .collect();
  return rows.map((row) => ({
    topic: kafka.topic,
    partition: row.partition as number,
    key: row.key as Uint8Array | null,
    value: row.value as Uint8Array | null,
    headers: (row.headers as { key: string; value: Uint8Array }[]).map((h) => ({
      key: h.key,
      value: text(h.value),
    })),
  }));
}

/** A Kafka topic in memory: what the brokers acknowledged, in order. */
function memoryKafka(topic: OutgoingRecord[]): KafkaRecordWriter {
  return {
    send: async (records) => void topic.push(...records),
    close: async () => undefined,
  };
}

function sinkOf(
  kind: ChaosSinkKind,
  output: ObjectStore,
  injector: CrashInjector,
  kafka: ChaosKafka,
  client: DynamoDBClient | undefined,
  table: string | undefined,
): Sink {
  switch (kind) {
    case 'delta':
      // Small intervals, so that short runs also write (and crash in) Delta checkpoints and compactions.
      return new DeltaSink(output, { configuration: { 'delta.checkpointInterval': '2' } });
    case 'files':
      return new FileSink(output, { format: 'json', compactInterval: 2 });
    case 'kafka':
      return new KafkaSink(
        kafkaSinkOptions(
          new Map([
            ['kafka.bootstrap.servers', kafka.brokers ?? 'memory:9092'],
            ['topic', kafka.topic],
          ]),
        ),
        (options) =>
          crashingKafkaWriter(
            kafka.brokers ? kafkajsWriter(options) : memoryKafka(kafka.memory),
            injector,
          ),
      );
    case 'dynamodb':
      return new DynamoDbSink({ client: client!, tableName: table! });
  }
}

async function createSinkTable(aws: ChaosAwsEndpoints): Promise<string> {
  const { CreateTableCommand } = await import('@aws-sdk/client-dynamodb');
  const client = localDynamoClient(aws.dynamoDbEndpoint);
  const name = uniqueName('chaos-sink');
  try {
    await client.send(
      new CreateTableCommand({
        TableName: name,
        AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
        KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
        BillingMode: 'PAY_PER_REQUEST',
      }),
    );
    return name;
  } finally {
    client.destroy();
  }
}

async function readOutput(
  kind: ChaosSinkKind,
  store: ObjectStore,
  schemaDdl: string,
  kafka: ChaosKafka,
  dynamo: { aws: ChaosAwsEndpoints; table: string } | undefined,
): Promise<SinkOutput> {
  const session = new SluiceSession({ objectStores: { chaos: () => store } });
  switch (kind) {
    case 'delta':
      return (await store.list('_delta_log/')).length === 0
        ? []
        : (await session.read.delta(store)).collect();
    case 'files':
      return session.read.schema(schemaDdl).json('chaos://output/').collect();
    case 'kafka':
      return recordsOnce(kafka.brokers ? await topicRecords(session, kafka) : kafka.memory);
    case 'dynamodb':
      return scanTable(dynamo!.aws, dynamo!.table);
  }
}

/**
 * The records a consumer keeps that drops re-sent ones by their headers: the first of each
 * (sluice.queryId, sluice.batchId, sluice.seq), as key and value strings.
 */
function recordsOnce(topic: readonly OutgoingRecord[]): RowObject[] {
  const seen = new Set<string>();
  const kept: RowObject[] = [];
  for (const record of topic) {
    const header = (key: string) => String(record.headers.find((h) => h.key === key)?.value);
    const id = ['sluice.queryId', 'sluice.batchId', 'sluice.seq'].map(header).join('/');
    if (seen.has(id)) continue;
    seen.add(id);
    kept.push({ key: text(record.key), value: text(record.value) });
  }
  return kept;
}

function text(bytes: Uint8Array | string | null): string | null {
  return bytes === null || typeof bytes === 'string' ? bytes : new TextDecoder().decode(bytes);
}

/** The sink table's items as rows: the key and bookkeeping attributes left out. */
async function scanTable(aws: ChaosAwsEndpoints, table: string): Promise<RowObject[]> {
  const client = localDynamoClient(aws.dynamoDbEndpoint);
  try {
    const { Items = [] } = await client.send(new ScanCommand({ TableName: table }));
    return Items.map((item) => {
      const row = unmarshall(item);
      for (const bookkeeping of ['pk', 'batchId', 'queryId']) delete row[bookkeeping];
      return row;
    });
  } finally {
    client.destroy();
  }
}
