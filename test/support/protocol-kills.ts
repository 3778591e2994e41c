/**
 * SIGKILL of a function container at a protocol step, seen from the wire: relays in front of
 * DynamoDB Local and s3rver (http-relay.ts) recognise each request's step (the lease, the intent,
 * the sink's Delta files and log entry, the commit) and which container sent it, and a kill armed
 * for that step kills the container right there, as Lambda kills an environment at its timeout or
 * an out-of-memory error does. A kill lands either before the request reaches the service (the
 * write never happens) or after it was forwarded (the write happened, its answer never comes back).
 *
 * The containers are told apart by the SDK's app id (`AWS_SDK_UA_APP_ID`, which the SDK puts in the
 * user agent, a header SigV4 does not sign): give each container its own through `containerEnv`.
 * One relay per service serves every container, so that S3's `If-None-Match: *` is enforced across
 * them (the stage-2 shards commit to one Delta table).
 */
import { type HttpRelay, type RelayedRequest, startHttpRelay } from './http-relay.js';
import type { LambdaContainer } from './lambda-container.js';

/** A protocol step as its request shows it. */
export type WireStep = 'lease' | 'intent' | 'delta-data' | 'delta-log' | 'commit';

/** Where the kill lands relative to the step's request. */
export type KillSide = 'before' | 'after';

/** One kill: the first request of `step` from a container serving `stage` ends that container. */
export interface ArmedKill {
  readonly stage: number;
  readonly step: WireStep;
  readonly side: KillSide;
}

/** A kill that happened. */
export interface FiredKill extends ArmedKill {
  readonly shard: number;
  /** The request's method and path, for the test's log. */
  readonly request: string;
}

/** What a container serves, as the kill switch knows it. */
interface Registered {
  readonly stage: number;
  readonly shard: number;
  readonly container: LambdaContainer;
}

const APP_ID = /app\/(c\d+)/;

/** The relays and the kills armed on them. */
export class ProtocolKills {
  /** Kills that happened, in order. */
  readonly fired: FiredKill[] = [];
  private readonly armed: ArmedKill[] = [];
  private readonly containers = new Map<string, Registered>();
  private readonly killed = new Set<LambdaContainer>();
  /** Requests whose sender was killed before they were forwarded: never forwarded. */
  private readonly swallowed = new WeakSet<RelayedRequest>();
  private nextId = 0;

  private constructor(
    private readonly lakeBucket: string,
    private relays: readonly HttpRelay[] = [],
  ) {}

  /** Starts the relays in front of DynamoDB and S3; `lakeBucket` holds the Delta table. */
  static async start(options: {
    readonly dynamoDb: string;
    readonly s3: string;
    readonly lakeBucket: string;
  }): Promise<ProtocolKills> {
    const kills = new ProtocolKills(options.lakeBucket);
    const swallow = {
      matches: (r: RelayedRequest) => kills.swallowed.has(r),
      // the sender is dead: nobody reads this answer, and the service never saw the request
      action: {
        kind: 'respond' as const,
        response: { status: 503, headers: {}, body: '' },
      },
      times: Infinity,
    };
    const onRequest = (r: RelayedRequest) => kills.observe(r);
    kills.relays = await Promise.all([
      startHttpRelay({ target: options.dynamoDb, onRequest, faults: [swallow] }),
      startHttpRelay({
        target: options.s3,
        onRequest,
        faults: [swallow],
        enforceIfNoneMatch: true,
      }),
    ]);
    return kills;
  }

  /** The endpoints a container's SDK clients should use. */
  get endpoints(): { readonly dynamoDb: string; readonly s3: string } {
    return { dynamoDb: this.relays[0].endpoint, s3: this.relays[1].endpoint };
  }

  /** The environment that names a new container to the relays (its SDK app id). */
  containerEnv(): Record<string, string> {
    return { AWS_SDK_UA_APP_ID: `c${this.nextId++}` };
  }

  /** Tells the switch which stage and shard the container with `env` (from containerEnv) serves. */
  register(
    env: Readonly<Record<string, string>>,
    container: LambdaContainer,
    stage: number,
    shard: number,
  ): void {
    this.containers.set(env.AWS_SDK_UA_APP_ID, { stage, shard, container });
  }

  /** Arms a kill; it fires at the first matching request, in this or a later invocation. */
  arm(kill: ArmedKill): void {
    this.armed.push(kill);
  }

  /** Kills armed and not fired yet. */
  get pending(): readonly ArmedKill[] {
    return this.armed;
  }

  /** True when the switch killed `container`. */
  wasKilled(container: LambdaContainer): boolean {
    return this.killed.has(container);
  }

  async stop(): Promise<void> {
    await Promise.all(this.relays.map((r) => r.stop()));
  }

  private observe(request: RelayedRequest): void {
    const id = APP_ID.exec(
      `${String(request.headers['user-agent'])} ${String(request.headers['x-amz-user-agent'])}`,
    )?.[1];
    const sender = id === undefined ? undefined : this.containers.get(id);
    const step = this.stepOf(request);
    if (!sender || !step || this.killed.has(sender.container)) return;
    const i = this.armed.findIndex((k) => k.stage === sender.stage && k.step === step);
    if (i < 0) return;
    const [kill] = this.armed.splice(i, 1);
    if (kill.side === 'before') this.swallowed.add(request);
    this.killed.add(sender.container);
    this.fired.push({
      ...kill,
      shard: sender.shard,
      request: `${request.method} ${request.url.split('?')[0]}`,
    });
    // SIGKILL now, while the relay holds the request: the process gets no chance to see its answer
    void sender.container.stop();
  }

  private stepOf(request: RelayedRequest): WireStep | undefined {
    const target = request.headers['x-amz-target'];
    if (typeof target === 'string') {
      const operation = target.split('.')[1];
      if (operation === 'TransactWriteItems') return 'commit';
      if (operation === 'PutItem') return 'intent';
      if (operation === 'UpdateItem') return 'lease';
      return undefined;
    }
    if (request.method !== 'PUT' || !request.url.startsWith(`/${this.lakeBucket}/`)) {
      return undefined;
    }
    return request.url.includes('/_delta_log/') ? 'delta-log' : 'delta-data';
  }
}
