/**
 * A local stand-in for one Lambda execution environment: a Node.js process that loads a function
 * bundle once, as the Lambda runtime does (plain `node`, the bundle's `handler` export, the
 * function's environment variables and nothing else), and serves invocations one at a time. Like
 * Lambda, it enforces a timeout: an invocation still running at its deadline has its process killed,
 * mid-batch or wherever it is, and the container is gone.
 *
 * Two containers are two cold starts with nothing shared but the services they talk to, which is
 * how concurrent invocations of a real function meet. The process's stdout (the function's JSON logs
 * and EMF metrics) is kept line by line.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { InvokeMessage, WorkerMessage } from './lambda-container-worker.js';

/** The line Lambda writes when an invocation ends, before its request id. */
const END_LINE = 'END RequestId: ';

const WORKER_SOURCE = fileURLToPath(new URL('./lambda-container-worker.ts', import.meta.url));

/** How a container is started. */
export interface LambdaContainerOptions {
  /** The function bundle (an ES module exporting `handler`). */
  readonly bundle: string;
  /** The function's environment variables: the container gets these and no others. */
  readonly env: Readonly<Record<string, string>>;
}

/** How an invocation ended. */
export type InvocationOutcome =
  | { readonly kind: 'result'; readonly value: unknown; readonly durationMs: number }
  | {
      readonly kind: 'error';
      readonly errorType: string;
      readonly errorMessage: string;
      readonly durationMs: number;
    }
  | { readonly kind: 'timeout'; readonly durationMs: number };

/** How an invocation is run. */
export interface InvokeOptions {
  /** The time budget the handler's context reports at the start. */
  readonly remainingMs: number;
  /**
   * When the process is killed, as Lambda does at the function's timeout. A larger value than
   * `remainingMs` gives a context that reports less time than the function really has.
   * @default remainingMs
   */
  readonly killAfterMs?: number;
}

/** The function's initialisation failed: the bundle threw while it was imported. */
export class LambdaInitError extends Error {
  constructor(
    readonly errorType: string,
    readonly errorMessage: string,
  ) {
    super(`${errorType}: ${errorMessage}`);
    this.name = 'LambdaInitError';
  }
}

/** One execution environment. */
export class LambdaContainer {
  /** The process's stdout, line by line. */
  readonly output: string[] = [];
  /** The process's stderr, line by line. */
  readonly errors: string[] = [];
  private busy = false;
  private importMs = 0;
  /** Invocations waiting for their END line, by request id. */
  private readonly ending = new Map<string, () => void>();

  private constructor(private readonly child: ChildProcess) {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      this.output.push(line);
      if (line.startsWith(END_LINE)) this.ending.get(line.slice(END_LINE.length))?.();
    });
    createInterface({ input: child.stderr! }).on('line', (line) => this.errors.push(line));
  }

  /** How long importing the bundle took, measured inside the process. */
  get initMs(): number {
    return this.importMs;
  }

  /** Starts a container and imports the bundle; rejects with a LambdaInitError when that throws. */
  static async start(options: LambdaContainerOptions): Promise<LambdaContainer> {
    const child = fork(await workerScript(options.bundle), [options.bundle], {
      env: options.env,
      execArgv: [],
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    const container = new LambdaContainer(child);
    const first = await nextMessage(child);
    if (first.kind === 'ready') {
      container.importMs = first.initMs;
      return container;
    }
    await container.stop();
    if (first.kind === 'init-error') throw new LambdaInitError(first.errorType, first.errorMessage);
    throw new Error(
      `The container exited before its bundle loaded:\n${container.errors.join('\n')}`,
    );
  }

  /** Invokes the handler with `event`; one invocation at a time, as Lambda does per environment. */
  async invoke(event: unknown, options: InvokeOptions): Promise<InvocationOutcome> {
    if (this.busy) throw new Error('A Lambda container serves one invocation at a time.');
    if (!this.child.connected) throw new Error('This container is gone (it timed out or exited).');
    this.busy = true;
    const requestId = randomUUID();
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    try {
      const message: InvokeMessage = { requestId, event, remainingMs: options.remainingMs };
      const ended = new Promise<void>((resolve) => this.ending.set(requestId, resolve));
      this.child.send(message);
      const reply = await Promise.race([
        nextMessage(this.child),
        sleep(options.killAfterMs ?? options.remainingMs).then(() => 'timeout' as const),
      ]);
      if (reply === 'timeout') {
        await this.stop();
        return { kind: 'timeout', durationMs: elapsed() };
      }
      if (reply.kind !== 'result' && reply.kind !== 'error') {
        throw new Error(
          `The container ended the invocation with ${JSON.stringify(reply)}:\n${this.errors.join('\n')}`,
        );
      }
      // the reply comes over IPC, the log lines over stdout: wait until all of them are in
      await ended;
      return reply.kind === 'result'
        ? { kind: 'result', value: reply.value, durationMs: elapsed() }
        : { ...reply, durationMs: elapsed() };
    } finally {
      this.ending.delete(requestId);
      this.busy = false;
    }
  }

  /** The stdout lines that are JSON objects (log lines and EMF documents), parsed. */
  jsonLines(): Record<string, unknown>[] {
    return this.output.flatMap((line) => {
      try {
        const value: unknown = JSON.parse(line);
        return typeof value === 'object' && value !== null
          ? [value as Record<string, unknown>]
          : [];
      } catch {
        return []; // START and END lines, or a dependency's plain text
      }
    });
  }

  /** Kills the process (as Lambda does at a timeout, or when it retires an environment). */
  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.kill('SIGKILL');
    await exited;
  }
}

/** The worker, compiled to plain JavaScript next to the bundle (once per bundle directory). */
const workers = new Map<string, Promise<string>>();
function workerScript(bundle: string): Promise<string> {
  const out = path.join(path.dirname(bundle), 'lambda-container-worker.mjs');
  let script = workers.get(out);
  if (!script) {
    script = build({
      entryPoints: [WORKER_SOURCE],
      outfile: out,
      platform: 'node',
      target: 'node20',
      format: 'esm',
      logLevel: 'warning',
    }).then(() => out);
    workers.set(out, script);
  }
  return script;
}

/** The next message from the worker, or an error when it exits first. */
function nextMessage(child: ChildProcess): Promise<WorkerMessage | { kind: 'exit' }> {
  return new Promise((resolve) => {
    const onMessage = (message: WorkerMessage) => {
      child.off('exit', onExit);
      resolve(message);
    };
    const onExit = () => {
      child.off('message', onMessage);
      resolve({ kind: 'exit' });
    };
    child.once('message', onMessage);
    child.once('exit', onExit);
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
