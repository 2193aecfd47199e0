import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FetchFeedOptions } from '../../src/index.js';

export type Handler = (request: IncomingMessage, response: ServerResponse) => void | Promise<void>;

export interface TestServer {
  /** http://127.0.0.1:port + path */
  readonly url: (path: string) => string;
  readonly port: number;
  /** Every request received, in order. */
  readonly requests: IncomingMessage[];
  /** Connections accepted (a refused host must add none). */
  readonly connections: () => number;
  readonly close: () => Promise<void>;
}

/** A real HTTP server on a loopback address, answering every path with its handler (404 for the others). */
export async function startTestServer(routes: Record<string, Handler>, host = '127.0.0.1'): Promise<TestServer> {
  const requests: IncomingMessage[] = [];
  let connections = 0;
  const server = createServer((request, response) => {
    requests.push(request);
    const handler = routes[new URL(request.url ?? '/', 'http://x').pathname];
    if (!handler) {
      response.writeHead(404).end('not here');
      return;
    }
    void Promise.resolve(handler(request, response)).catch(() => response.destroy());
  });
  server.on('connection', () => (connections += 1));
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://${host}:${port}${path}`,
    port,
    requests,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The real feed of a canteen (Triplex-Mensa, Heidelberg), as the OpenMensa reader's tests use it. */
export const heidelbergFeed = readFileSync(
  new URL('../../../adapters-openmensa/test/fixtures/heidelberg-triplex-feed.xml', import.meta.url),
);

/** Options that never wait: sleeps are recorded, not slept, and the local server is reachable. */
export function instantOptions(overrides: FetchFeedOptions = {}): FetchFeedOptions & { readonly sleeps: number[] } {
  const sleeps: number[] = [];
  return {
    allowPrivateNetworks: true,
    connectTimeoutMs: 1_000,
    totalTimeoutMs: 2_000,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: () => 0.5,
    ...overrides,
    sleeps,
  };
}

/**
 * Writes `totalBytes` in chunks, as fast as the client reads them. Resolves when the connection closes, with how many
 * bytes it wrote and whether it wrote them all.
 */
export function streamBytes(
  response: ServerResponse,
  totalBytes: number,
  chunk: Buffer = Buffer.alloc(64 * 1024, 0x61),
) {
  return new Promise<{ written: number; finished: boolean }>((resolve) => {
    let written = 0;
    let finished = false;
    response.once('close', () => resolve({ written, finished }));
    const writeMore = () => {
      while (written < totalBytes && !response.destroyed) {
        const piece = chunk.subarray(0, Math.min(chunk.length, totalBytes - written));
        written += piece.length;
        if (!response.write(piece)) return void response.once('drain', writeMore);
      }
      if (!response.destroyed) response.end(() => (finished = true));
    };
    writeMore();
  });
}

/** A callback that resolves once: for a handler to tell the test what it saw. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}
