import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FeedFetchError, fetchFeed } from '../src/index.js';
import {
  deferred,
  heidelbergFeed,
  instantOptions,
  startTestServer,
  streamBytes,
  type TestServer,
} from './support/test-server.js';

const MB = 1024 * 1024;
const fiftyMegabytes = 50 * MB;
/** 50 MB of zeros, gzipped to about 50 kB. */
const gzipBomb = gzipSync(Buffer.alloc(fiftyMegabytes));
/** Random bytes do not compress: gzipped, they are larger on the wire than decoded. */
const incompressible = randomBytes(1000);
const incompressibleGzipped = gzipSync(incompressible);

let server: TestServer;
let streamed = deferred<{ written: number; finished: boolean }>();
let declaredOnly = deferred<'closed'>();

beforeAll(async () => {
  const encoded = (encoding: string, body: Buffer) => (_: unknown, response: ServerResponse) =>
    void response.writeHead(200, { 'content-encoding': encoding, 'content-length': body.length }).end(body);
  server = await startTestServer({
    '/hang': () => {},
    '/slow-headers': (_, response) => void setTimeout(() => response.writeHead(200).end('late but whole'), 150),
    '/drip': (_, response) => {
      response.writeHead(200);
      const timer = setInterval(() => response.write('<'), 20);
      response.once('close', () => clearInterval(timer));
    },
    '/fifty-megabytes-chunked': async (_, response) => {
      response.writeHead(200, { 'content-type': 'application/xml' });
      streamed.resolve(await streamBytes(response, fiftyMegabytes));
    },
    '/fifty-megabytes-declared': (_, response) => {
      // Declares the size, then sends nothing: only the declaration can end the fetch before the timeout.
      response.writeHead(200, { 'content-length': fiftyMegabytes });
      response.flushHeaders();
      response.once('close', () => declaredOnly.resolve('closed'));
    },
    '/exactly-1000': (_, response) => void response.writeHead(200).end(Buffer.alloc(1000, 0x61)),
    '/1001-chunked': (_, response) => {
      response.writeHead(200);
      response.write(Buffer.alloc(1000, 0x61));
      response.end(Buffer.alloc(1, 0x61));
    },
    '/gzip-bomb': encoded('gzip', gzipBomb),
    '/gzip-bomb-chunked': (_, response) => void response.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipBomb),
    '/incompressible-gzipped': (_, response) =>
      void response.writeHead(200, { 'content-encoding': 'gzip' }).end(incompressibleGzipped),
    '/gzip': encoded('gzip', gzipSync(heidelbergFeed)),
    '/deflate': encoded('deflate', deflateSync(heidelbergFeed)),
    '/br': encoded('br', brotliCompressSync(heidelbergFeed)),
    '/broken-gzip': encoded('gzip', gzipSync(heidelbergFeed).subarray(0, 200)),
    '/zstd': encoded('zstd', Buffer.from('whatever')),
  });
});
afterAll(() => server.close());

const caught = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.fail('expected a FeedFetchError'),
    (error: unknown) => {
      expect(error).toBeInstanceOf(FeedFetchError);
      return error as FeedFetchError;
    },
  );
const noRetries = (overrides = {}) => instantOptions({ maxRetries: 0, ...overrides });

describe('fetchFeed: time limits', () => {
  it('gives up on a server that never answers after totalTimeoutMs, as a timeout', async () => {
    const started = performance.now();

    const error = await caught(fetchFeed(server.url('/hang'), noRetries({ totalTimeoutMs: 200 })));

    expect(error).toMatchObject({
      kind: 'timeout',
      message: `${server.url('/hang')}: no complete answer within 200 ms`,
    });
    expect(performance.now() - started).toBeLessThan(1_500);
  });

  it('counts the body in the total time: a body that trickles forever times out', async () => {
    const error = await caught(fetchFeed(server.url('/drip'), noRetries({ totalTimeoutMs: 200 })));

    expect(error.kind).toBe('timeout');
  });

  it('gives up on a connection that does not open within connectTimeoutMs (here: a lookup that never answers)', async () => {
    const error = await caught(
      fetchFeed(
        'http://feeds.example/feed.xml',
        noRetries({ lookup: () => new Promise(() => {}), connectTimeoutMs: 100, totalTimeoutMs: 5_000 }),
      ),
    );

    expect(error).toMatchObject({
      kind: 'timeout',
      message: 'http://feeds.example/feed.xml: no connection within 100 ms',
    });
  });

  it('lets the connect timeout end once connected: a slow answer within the total time is fine', async () => {
    const result = await fetchFeed(
      server.url('/slow-headers'),
      noRetries({ connectTimeoutMs: 50, totalTimeoutMs: 2_000 }),
    );

    expect(result).toMatchObject({ status: 'fetched', body: Buffer.from('late but whole') });
  });
});

describe('fetchFeed: size limit', () => {
  it('accepts a body of exactly maxBodyBytes', async () => {
    const result = await fetchFeed(server.url('/exactly-1000'), noRetries({ maxBodyBytes: 1000 }));

    expect(result).toMatchObject({ status: 'fetched', body: Buffer.alloc(1000, 0x61) });
  });

  it('refuses a body of one byte more, counted while reading (no Content-Length)', async () => {
    const error = await caught(fetchFeed(server.url('/1001-chunked'), noRetries({ maxBodyBytes: 1000 })));

    expect(error).toMatchObject({
      kind: 'too_large',
      message: `${server.url('/1001-chunked')}: the body is larger than 1000 bytes`,
    });
  });

  it('refuses 50 MB sent without Content-Length as soon as 5 MB are passed: the server sees the connection close early', async () => {
    streamed = deferred();

    const error = await caught(
      fetchFeed(server.url('/fifty-megabytes-chunked'), noRetries({ totalTimeoutMs: 10_000 })),
    );

    expect(error.kind).toBe('too_large');
    const { written, finished } = await streamed.promise;
    expect(finished).toBe(false);
    // What the client read (5 MB and a chunk) plus what the sockets' buffers took in before the close.
    expect(written).toBeLessThan(20 * MB);
  });

  it('refuses a declared Content-Length of 50 MB on the headers, without waiting for the body', async () => {
    declaredOnly = deferred();

    const error = await caught(
      fetchFeed(server.url('/fifty-megabytes-declared'), noRetries({ totalTimeoutMs: 2_000 })),
    );

    expect(error.kind).toBe('too_large');
    expect(await declaredOnly.promise).toBe('closed');
  });

  it('refuses a gzip bomb (50 kB on the wire, 50 MB decoded) on the decoded size', async () => {
    expect(gzipBomb.length).toBeLessThan(MB);

    const error = await caught(fetchFeed(server.url('/gzip-bomb'), noRetries()));

    expect(error.kind).toBe('too_large');
  });

  it('refuses a gzip bomb sent without Content-Length as well', async () => {
    const error = await caught(fetchFeed(server.url('/gzip-bomb-chunked'), noRetries({ maxBodyBytes: MB })));

    expect(error.kind).toBe('too_large');
  });

  it('counts the bytes on the wire too: a compressed body larger than the limit is refused even when it decodes smaller', async () => {
    expect(incompressibleGzipped.length).toBeGreaterThan(1010);
    const limits = noRetries({ maxBodyBytes: 1010 });

    const error = await caught(fetchFeed(server.url('/incompressible-gzipped'), limits));

    expect(error.kind).toBe('too_large');
    const roomier = await fetchFeed(
      server.url('/incompressible-gzipped'),
      noRetries({ maxBodyBytes: incompressibleGzipped.length }),
    );
    expect(roomier).toMatchObject({ status: 'fetched', body: incompressible });
  });
});

describe('fetchFeed: compressed bodies', () => {
  it.each(['/gzip', '/deflate', '/br'])('decodes %s', async (path) => {
    const result = await fetchFeed(server.url(path), noRetries());

    expect(result).toMatchObject({ status: 'fetched', body: heidelbergFeed });
  });

  it('reports a body that does not decode as a network error', async () => {
    const error = await caught(fetchFeed(server.url('/broken-gzip'), noRetries()));

    expect(error).toMatchObject({
      kind: 'network',
      message: `${server.url('/broken-gzip')}: the body could not be read or decoded (gzip)`,
    });
  });

  it('refuses an encoding it did not ask for', async () => {
    const error = await caught(fetchFeed(server.url('/zstd'), noRetries()));

    expect(error).toMatchObject({
      kind: 'network',
      message: `${server.url('/zstd')}: unsupported content encoding "zstd"`,
    });
  });
});
