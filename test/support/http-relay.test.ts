/**
 * The test relay's fixed latency: every request is held for `latencyMs` (plus its own `delayMs`)
 * before it is forwarded, and still reaches the service unchanged.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type HttpRelay, startHttpRelay } from './http-relay.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** A service that answers every request with its method and path. */
async function echoService(): Promise<string> {
  const server = http.createServer((request, response) => {
    response.end(`${request.method} ${request.url}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function relayWith(options: Omit<Parameters<typeof startHttpRelay>[0], 'target'>) {
  const relay: HttpRelay = await startHttpRelay({ target: await echoService(), ...options });
  closers.push(() => relay.stop());
  return relay;
}

describe('the HTTP relay with a fixed latency', () => {
  it('holds every request for latencyMs plus its delay, then forwards it unchanged', async () => {
    const holds: number[] = [];
    const relay = await relayWith({
      latencyMs: 25,
      delayMs: (request) => (request.url === '/slow' ? 100 : 0),
      hold: (forward, ms) => {
        holds.push(ms);
        forward();
      },
    });
    const answers = await Promise.all(
      ['/a', '/slow', '/b'].map(async (path) => (await fetch(`${relay.endpoint}${path}`)).text()),
    );
    expect(answers).toEqual(['GET /a', 'GET /slow', 'GET /b']);
    expect(holds.sort((a, b) => a - b)).toEqual([25, 25, 125]);
  });

  it('adds nothing by default', async () => {
    const holds: number[] = [];
    const relay = await relayWith({ hold: (forward, ms) => (holds.push(ms), forward()) });
    expect(await (await fetch(`${relay.endpoint}/x`, { method: 'PUT' })).text()).toBe('PUT /x');
    expect(holds).toEqual([0]);
  });

  it('refuses a negative latency', async () => {
    await expect(relayWith({ latencyMs: -1 })).rejects.toThrow(/latencyMs=-1/);
  });
});
