/**
 * An HTTP relay in front of a local service (s3rver, DynamoDB Local): it forwards every request
 * unchanged, so signed AWS requests still verify, and lets a test or benchmark watch the requests
 * (count them by kind, as the bill would), add a fixed latency to every request (a round trip to AWS,
 * tens of ms, so that work waits on I/O as in Lambda and not only on this machine's cores), slow some
 * of them down (a slow network, so that a batch takes long enough to be cut off by its time budget),
 * or answer some with a fault as AWS would
 * (aws-faults.ts builds the answers). A function bundle is pointed at the relay through its endpoint
 * variables (AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL_DYNAMODB).
 *
 * In front of s3rver, which accepts PutObject's `If-None-Match: *` without enforcing it, the relay
 * can enforce it as S3 does: a conditional PUT of a key that exists is answered 412
 * PreconditionFailed without reaching s3rver, and conditional PUTs of one key are forwarded one at a
 * time (a lock per key), so of two racing creates exactly one wins.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the relay does with each request. */
export interface HttpRelayOptions {
  /** The service's base URL, e.g. `http://127.0.0.1:41235`. */
  readonly target: string;
  /** Sees every request (with its body) as it arrives. */
  readonly onRequest?: (request: RelayedRequest) => void;
  /** Sees every request and the status it got, once the service has answered. */
  readonly onExchange?: (request: RelayedRequest, status: number, responseBytes: number) => void;
  /** How long to hold a request before forwarding it. @default no delay */
  readonly delayMs?: (request: IncomingMessage) => number;
  /**
   * A fixed latency added to every request before it is forwarded (on top of `delayMs`), as the
   * network between Lambda and S3 or DynamoDB adds: tens of ms. @default 0
   */
  readonly latencyMs?: number;
  /** Holds a request for `ms` before `forward` (tests observe the holds). @default setTimeout */
  readonly hold?: (forward: () => void, ms: number) => void;
  /**
   * Faults to inject: the first that matches a request (and has answers left) answers it instead of
   * the service. @default none
   */
  readonly faults?: readonly RelayFault[];
  /** Enforce `If-None-Match: *` on PUT as S3 does (see the module doc). @default false */
  readonly enforceIfNoneMatch?: boolean;
}

/** A request as the relay forwarded it. */
export interface RelayedRequest {
  readonly method: string;
  /** Path and query string. */
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: Buffer;
}

/** A canned answer from the service: what AWS returns for a fault. */
export interface FaultResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/**
 * What a fault does to a request: answer it without forwarding (`respond`); forward it after a
 * delay (`delay`); or forward it, let the service act on it, and then drop the connection before the
 * client sees the answer (`drop-after-forward`: the write happened, the answer was lost).
 */
export type FaultAction =
  | { readonly kind: 'respond'; readonly response: FaultResponse }
  | { readonly kind: 'delay'; readonly ms: number }
  | { readonly kind: 'drop-after-forward' };

/** One injected fault. */
export interface RelayFault {
  /** Which requests it hits. */
  readonly matches: (request: RelayedRequest) => boolean;
  readonly action: FaultAction;
  /** How many matching requests it hits; later ones pass. @default 1 */
  readonly times?: number;
}

/** A running relay. */
export interface HttpRelay {
  /** The relay's base URL, to use in place of the target's. */
  readonly endpoint: string;
  /** How many requests each fault (by its index in `faults`) has hit so far. */
  readonly faultsInjected: readonly number[];
  /** Stops listening and closes its connections. */
  stop(): Promise<void>;
}

/** Starts a relay on a free loopback port. */
export async function startHttpRelay(options: HttpRelayOptions): Promise<HttpRelay> {
  const target = new URL(options.target);
  const agent = new http.Agent({ keepAlive: true });
  const faults = options.faults ?? [];
  const injected = faults.map(() => 0);
  const keyLocks = new KeyLocks();
  const latencyMs = options.latencyMs ?? 0;
  if (!(latencyMs >= 0) || !Number.isFinite(latencyMs)) {
    throw new RangeError(`HTTP relay latencyMs=${latencyMs}: use a finite number of ms >= 0.`);
  }
  const hold = options.hold ?? ((forward, ms) => setTimeout(forward, ms));

  /** Sends `relayed` to the service; resolves with its answer. */
  function forward(relayed: RelayedRequest): Promise<Answer> {
    return exchange(agent, target, relayed.method, relayed.url, relayed.headers, relayed.body);
  }

  /** Forwards `relayed` unless a fault or an enforced precondition answers it. */
  async function serve(relayed: RelayedRequest, response: ServerResponse): Promise<void> {
    const index = faults.findIndex((f, i) => injected[i] < (f.times ?? 1) && f.matches(relayed));
    const action = index < 0 ? undefined : faults[index].action;
    if (index >= 0) injected[index]++;
    if (action?.kind === 'respond') {
      options.onExchange?.(relayed, action.response.status, action.response.body.length);
      response.writeHead(action.response.status, action.response.headers);
      response.end(action.response.body);
      return;
    }
    if (action?.kind === 'delay') await sleep(action.ms);
    const answer = isConditionalCreate(relayed, options.enforceIfNoneMatch)
      ? await keyLocks.run(objectPath(relayed.url), () => createIfAbsent(relayed))
      : await forward(relayed);
    options.onExchange?.(relayed, answer.status, answer.body.length);
    if (action?.kind === 'drop-after-forward') {
      response.socket?.destroy();
      return;
    }
    response.writeHead(answer.status, answer.headers);
    response.end(answer.body);
  }

  /** S3's `If-None-Match: *`: 412 when the key exists (s3rver answers an unsigned HEAD), else the PUT. */
  async function createIfAbsent(relayed: RelayedRequest): Promise<Answer> {
    const head = await exchange(
      agent,
      target,
      'HEAD',
      objectPath(relayed.url),
      {},
      Buffer.alloc(0),
    );
    if (head.status === 200) return preconditionFailed(objectPath(relayed.url));
    return forward(relayed);
  }

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const relayed = {
        method: request.method ?? 'GET',
        url: request.url ?? '/',
        headers: request.headers,
        body: Buffer.concat(chunks),
      };
      options.onRequest?.(relayed);
      hold(
        () => {
          serve(relayed, response).catch((e: Error) => response.destroy(e));
        },
        latencyMs + (options.delayMs?.(request) ?? 0),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    faultsInjected: injected,
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}

/** The service's answer to a forwarded request. */
interface Answer {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: Buffer;
}

function exchange(
  agent: http.Agent,
  target: URL,
  method: string,
  path: string,
  // the Host header stays the relay's: it is part of what the client signed
  headers: http.IncomingHttpHeaders,
  body: Buffer,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const upstream = http.request(
      { agent, host: target.hostname, port: target.port, method, path, headers },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () =>
          resolve({
            status: answer.statusCode ?? 502,
            headers: answer.headers,
            body: Buffer.concat(chunks),
          }),
        );
        answer.on('error', reject);
      },
    );
    upstream.on('error', reject);
    upstream.end(body);
  });
}

function isConditionalCreate(relayed: RelayedRequest, enforce: boolean | undefined): boolean {
  return enforce === true && relayed.method === 'PUT' && relayed.headers['if-none-match'] === '*';
}

/** The object's path (bucket and key, path style), without the query string. */
function objectPath(url: string): string {
  return url.split('?')[0];
}

/** S3's answer to a conditional write whose key is taken. */
function preconditionFailed(path: string): Answer {
  const body = Buffer.from(
    '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>PreconditionFailed</Code>' +
      '<Message>At least one of the pre-conditions you specified did not hold</Message>' +
      `<Condition>If-None-Match</Condition><Resource>${path}</Resource><RequestId>relay</RequestId></Error>`,
  );
  return {
    status: 412,
    headers: { 'content-type': 'application/xml', 'content-length': String(body.length) },
    body,
  };
}

/** One task at a time per key; tasks on other keys run concurrently. */
class KeyLocks {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(task, task);
    const tail = result.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
