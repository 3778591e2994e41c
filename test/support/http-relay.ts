/**
 * An HTTP relay in front of a local service (s3rver, DynamoDB Local): it forwards every request
 * unchanged, so signed AWS requests still verify, and lets a test or benchmark watch the requests
 * (count them by kind, as the bill would) or slow some of them down (a slow network, so that a batch
 * takes long enough to be cut off by its time budget). A function bundle is pointed at the relay
 * through its endpoint variables (AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL_DYNAMODB).
 */
import http, { type IncomingMessage } from 'node:http';
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
}

/** A request as the relay forwarded it. */
export interface RelayedRequest {
  readonly method: string;
  /** Path and query string. */
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: Buffer;
}

/** A running relay. */
export interface HttpRelay {
  /** The relay's base URL, to use in place of the target's. */
  readonly endpoint: string;
  /** Stops listening and closes its connections. */
  stop(): Promise<void>;
}

/** Starts a relay on a free loopback port. */
export async function startHttpRelay(options: HttpRelayOptions): Promise<HttpRelay> {
  const target = new URL(options.target);
  const agent = new http.Agent({ keepAlive: true });
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
      setTimeout(() => forward(relayed), options.delayMs?.(request) ?? 0);
    });

    function forward(relayed: RelayedRequest): void {
      const upstream = http.request(
        {
          agent,
          host: target.hostname,
          port: target.port,
          method: relayed.method,
          path: relayed.url,
          // the Host header stays the relay's: it is part of what the client signed
          headers: relayed.headers,
        },
        (answer) => {
          const body: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => body.push(chunk));
          answer.on('end', () => {
            const bytes = Buffer.concat(body);
            options.onExchange?.(relayed, answer.statusCode ?? 0, bytes.length);
            response.writeHead(answer.statusCode ?? 502, answer.headers);
            response.end(bytes);
          });
          answer.on('error', (e) => response.destroy(e));
        },
      );
      upstream.on('error', (e) => response.destroy(e));
      upstream.end(relayed.body);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}
