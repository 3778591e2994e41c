/**
 * Amazon's DynamoDB Local, the jar shipped in the npm package `amplify-dynamodb-simulator`, run with
 * the machine's Java as a child process on a free port (docs/architecture.md section 8).
 *
 * It enforces DynamoDB's validation, condition expressions and TransactWriteItems, which is why the
 * checkpoint tests use it rather than an emulator written for convenience. It has no option to bind
 * one interface, so it listens on all of them; clients only ever use 127.0.0.1.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import path from 'node:path';
import type { RunningService } from './running-service.js';

/** How long the JVM may take to answer HTTP; generous for a loaded CI machine. */
const START_TIMEOUT_MS = 30_000;
/** How long a stopping JVM gets before it is killed. */
const STOP_TIMEOUT_MS = 5_000;
/** Another process can take the free port between our probe and the JVM's bind; then try another. */
const PORT_ATTEMPTS = 3;

/** Starts DynamoDB Local in memory; `workDir` receives the files it writes in its working directory. */
export async function startDynamoDbLocal(workDir: string): Promise<RunningService> {
  const emulator = emulatorDirectory();
  for (let attempt = 1; ; attempt++) {
    const started = await launch(emulator, await freeLoopbackPort(), workDir);
    if (started !== 'port-taken') return started;
    if (attempt === PORT_ATTEMPTS) {
      throw new Error(`DynamoDB Local could not bind a free port in ${PORT_ATTEMPTS} attempts.`);
    }
  }
}

function emulatorDirectory(): string {
  const packageJson = createRequire(import.meta.url).resolve(
    'amplify-dynamodb-simulator/package.json',
  );
  const emulator = path.join(path.dirname(packageJson), 'emulator');
  if (!existsSync(path.join(emulator, 'DynamoDBLocal.jar'))) {
    throw new Error(
      `DynamoDB Local's jar is missing from ${emulator}: the amplify-dynamodb-simulator package ships it; reinstall with \`npm ci\`.`,
    );
  }
  return emulator;
}

async function launch(
  emulator: string,
  port: number,
  workDir: string,
): Promise<RunningService | 'port-taken'> {
  const child = spawn(
    'java',
    [
      // C1 only: the JVM answers about a third sooner, and the tests' request volume never needs C2.
      '-XX:TieredStopAtLevel=1',
      `-Djava.library.path=${path.join(emulator, 'DynamoDBLocal_lib')}`,
      '-jar',
      path.join(emulator, 'DynamoDBLocal.jar'),
      '-inMemory',
      // one database for every credential and region, so no client can land in an empty one
      '-sharedDb',
      // tests never reach the network (the environment variable below says the same)
      '-disableTelemetry',
      '-port',
      String(port),
    ],
    {
      cwd: workDir,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, DDB_LOCAL_TELEMETRY: '0' },
    },
  );
  let output = '';
  const collect = (chunk: Buffer): void => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  // a test run that dies without its teardown must not leave a JVM behind
  const killOnExit = (): void => void child.kill('SIGKILL');
  process.once('exit', killOnExit);

  const endpoint = `http://127.0.0.1:${port}`;
  const polling = new AbortController();
  const outcome = await Promise.race([answers(endpoint, polling.signal), exited(child)]);
  polling.abort();
  if (outcome === 'answers') {
    return {
      endpoint,
      stop: async () => {
        process.off('exit', killOnExit);
        await stop(child);
      },
    };
  }
  process.off('exit', killOnExit);
  await stop(child);
  if (outcome instanceof Error && (outcome as NodeJS.ErrnoException).code === 'ENOENT') {
    throw new Error(
      'DynamoDB Local needs Java 17 or later, and `java` is not on the PATH. Install it with `apt-get install -y default-jre-headless`.',
    );
  }
  if (/Address already in use|BindException/.test(output)) return 'port-taken';
  const reason =
    outcome === 'timeout'
      ? `did not answer within ${START_TIMEOUT_MS} ms`
      : `exited (${String(outcome)})`;
  throw new Error(`DynamoDB Local on port ${port} ${reason}. Its output:\n${output}`);
}

/** Resolves 'answers' once any HTTP response comes back, or 'timeout'; polls until `cancel` aborts. */
async function answers(endpoint: string, cancel: AbortSignal): Promise<'answers' | 'timeout'> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline && !cancel.aborted) {
    try {
      await fetch(endpoint, { signal: AbortSignal.timeout(1_000) });
      return 'answers';
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
  return 'timeout';
}

/** Resolves with the exit code or signal, or the spawn error (e.g. ENOENT when java is missing). */
function exited(child: ChildProcess): Promise<string | Error> {
  return new Promise((resolve) => {
    child.once('error', resolve);
    child.once('exit', (code, signal) => resolve(signal ?? `code ${code}`));
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const gone = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
  await gone;
  clearTimeout(timer);
}

/** A port nothing listens on right now, found by letting the OS pick one on 127.0.0.1. */
function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}
