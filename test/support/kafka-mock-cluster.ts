/**
 * librdkafka's mock cluster (docs/architecture.md section 8): three Kafka-protocol brokers on
 * loopback ports, run by Debian's kcat as a producer whose stdin stays open. Topics are created on
 * first use with 4 partitions. Like a broker with size-based retention, it keeps about 5 MB per
 * partition and drops the oldest record batches beyond that, so retention and data loss can be
 * produced for real. It has no controller, so kafkajs's admin calls that need one (createTopics,
 * createPartitions, deleteRecords) and its idempotent or transactional producers do not work
 * against it.
 *
 * The global setup starts one for the whole run and hands its address to tests through
 * `inject('kafkaBootstrapServers')`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The mock cluster's brokers, `127.0.0.1:<port>,...`. */
    kafkaBootstrapServers: string;
  }
}

/** A running mock cluster. */
export interface KafkaMockCluster {
  /** `127.0.0.1:<port>,127.0.0.1:<port>,127.0.0.1:<port>`. */
  readonly bootstrapServers: string;
  /**
   * Freezes every broker (SIGSTOP of kcat): connections stay open and requests go unanswered, as
   * with a broker that hangs. Only for a cluster a test started itself: the run's shared one serves
   * others.
   */
  freeze(): void;
  /** Lets frozen brokers run again (SIGCONT). */
  thaw(): void;
  /** Stops the cluster (thawed first); safe to call once. */
  stop(): Promise<void>;
}

/** How long kcat may take to print the cluster's address. */
const START_TIMEOUT_MS = 10_000;
/** How long kcat gets to exit after its stdin closes before it is killed. */
const STOP_TIMEOUT_MS = 5_000;

/** Starts a mock cluster of three brokers. */
export async function startKafkaMockCluster(): Promise<KafkaMockCluster> {
  const child = spawn(
    'kcat',
    // -b is required and ignored (the mock replaces it); -P -t: a producer that waits on stdin
    ['-b', 'localhost:1', '-X', 'test.mock.num.brokers=3', '-d', 'mock', '-P', '-t', 'sluice-mock'],
    { stdio: ['pipe', 'ignore', 'pipe'] },
  );
  // a test run that dies without its teardown must not leave the cluster behind
  const killOnExit = (): void => void child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const address = await bootstrapServers(child);
  if (address instanceof Error) {
    process.off('exit', killOnExit);
    await stop(child);
    throw address;
  }
  // `-d mock` logs every request; the pipe must keep draining, or kcat (and the brokers) would block
  child.stderr!.resume();
  return {
    bootstrapServers: address,
    freeze: () => void child.kill('SIGSTOP'),
    thaw: () => void child.kill('SIGCONT'),
    stop: async () => {
      process.off('exit', killOnExit);
      child.kill('SIGCONT');
      await stop(child);
    },
  };
}

/** The address from kcat's `Mock cluster ... bootstrap.servers=...` line, or why there is none. */
function bootstrapServers(child: ChildProcess): Promise<string | Error> {
  return new Promise((resolve) => {
    const output: string[] = [];
    const lines = createInterface({ input: child.stderr! });
    const done = (result: string | Error) => {
      clearTimeout(timer);
      lines.close();
      resolve(result);
    };
    const timer = setTimeout(
      () =>
        done(
          new Error(
            `kcat printed no mock cluster address within ${START_TIMEOUT_MS} ms. Its output:\n${output.join('\n')}`,
          ),
        ),
      START_TIMEOUT_MS,
    );
    lines.on('line', (line) => {
      output.push(line);
      const match = /Mock cluster \S+ bootstrap\.servers=(\S+)/.exec(line);
      if (match) done(match[1]);
    });
    child.once('error', (e: NodeJS.ErrnoException) =>
      done(
        e.code === 'ENOENT'
          ? new Error(
              'The Kafka tests need kcat for its mock cluster, and `kcat` is not on the PATH. Install it with `apt-get install -y kcat`.',
            )
          : e,
      ),
    );
    child.once('exit', (code, signal) =>
      done(
        new Error(
          `kcat exited (${signal ?? `code ${code}`}) before its mock cluster was up. Its output:\n${output.join('\n')}`,
        ),
      ),
    );
  });
}

/** Closing stdin ends kcat (it ignores SIGTERM while it waits on stdin); kill it if it lingers. */
async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const gone = new Promise((resolve) => child.once('exit', resolve));
  child.stdin?.end();
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
  await gone;
  clearTimeout(timer);
}
