import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FeedFetchError, fetchFeed, type FetchAttemptReport } from '../src/index.js';
import { heidelbergFeed, instantOptions, startTestServer, type TestServer } from './support/test-server.js';

let server: TestServer;
const hits: Record<string, number> = {};
const count = (path: string) => (hits[path] = (hits[path] ?? 0) + 1);

beforeAll(async () => {
  server = await startTestServer({
    '/fails-once': (_, response) => {
      if (count('/fails-once') === 1) return void response.writeHead(500).end('stack trace: secret internals');
      response.writeHead(200).end(heidelbergFeed);
    },
    '/always-503': (_, response) => void response.writeHead(503).end(),
    '/unchanged': (_, response) => void response.writeHead(304).end(),
    '/missing': (_, response) => void response.writeHead(404).end(),
    '/rate-limited': (_, response) => void response.writeHead(429).end(),
    '/drops-once': (_, response) => {
      if (count('/drops-once') === 1) return void response.socket?.destroy();
      response.writeHead(200).end(heidelbergFeed);
    },
    '/hangs-once': (_, response) => {
      if (count('/hangs-once') === 1) return;
      response.writeHead(200).end(heidelbergFeed);
    },
    '/too-large': (_, response) => void response.writeHead(200).end(Buffer.alloc(2000)),
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

describe('fetchFeed: retries with exponential backoff and full jitter', () => {
  it('retries a 500 and answers the feed of the second attempt, after a random share of retryBaseMs', async () => {
    const options = instantOptions({ random: () => 0.5 });

    const result = await fetchFeed(server.url('/fails-once'), options);

    expect(result).toMatchObject({ status: 'fetched', body: heidelbergFeed });
    expect(options.sleeps).toEqual([1000]); // 0.5 * 2000
  });

  it('retries at most 3 times, doubling the window each time, then reports the last status', async () => {
    const randoms = [0.25, 0.5, 0.999];
    const options = instantOptions({ random: () => randoms.shift()! });
    const before = server.requests.length;

    const error = await caught(fetchFeed(server.url('/always-503'), options));

    expect(error).toMatchObject({
      kind: 'http_status',
      httpStatus: 503,
      message: `${server.url('/always-503')}: HTTP 503`,
    });
    expect(options.sleeps).toEqual([500, 2000, 7992]); // windows of 2000, 4000 and 8000 ms
    expect(server.requests.length - before).toBe(4);
  });

  it('takes retryBaseMs and maxRetries', async () => {
    const options = instantOptions({ random: () => 0.5, retryBaseMs: 100, maxRetries: 1 });

    await caught(fetchFeed(server.url('/always-503'), options));

    expect(options.sleeps).toEqual([50]);
  });

  it.each(['/missing', '/rate-limited'])('does not retry a 4xx (%s)', async (path) => {
    const options = instantOptions();
    const before = server.requests.length;

    const error = await caught(fetchFeed(server.url(path), options));

    expect(error.kind).toBe('http_status');
    expect(options.sleeps).toEqual([]);
    expect(server.requests.length - before).toBe(1);
  });

  it('retries a network error: a connection dropped before any answer', async () => {
    const options = instantOptions();

    const result = await fetchFeed(server.url('/drops-once'), options);

    expect(result.status).toBe('fetched');
    expect(options.sleeps).toEqual([1000]);
  });

  it('retries a timeout, with a fresh total time for the new attempt', async () => {
    const options = instantOptions({ totalTimeoutMs: 200 });

    const result = await fetchFeed(server.url('/hangs-once'), options);

    expect(result.status).toBe('fetched');
    expect(options.sleeps).toEqual([1000]);
  });

  it('does not retry what another attempt would not change: a body too large', async () => {
    const options = instantOptions({ maxBodyBytes: 1000 });

    await caught(fetchFeed(server.url('/too-large'), options));

    expect(options.sleeps).toEqual([]);
  });

  it('waits with the real timer by default', async () => {
    const { sleeps: _, sleep: __, ...options } = instantOptions({ retryBaseMs: 20, random: () => 1 });
    const started = performance.now();

    hits['/fails-once'] = 0;
    await fetchFeed(server.url('/fails-once'), options);

    expect(performance.now() - started).toBeGreaterThanOrEqual(15);
  });

  it('reports every attempt and its outcome, with the backoff that follows', async () => {
    hits['/fails-once'] = 0;
    const reports: FetchAttemptReport[] = [];
    let clock = 0;
    const options = instantOptions({ onAttempt: (report) => reports.push(report), now: () => (clock += 5) });

    await fetchFeed(server.url('/fails-once'), options);

    const url = server.url('/fails-once');
    expect(reports).toEqual([
      { attempt: 1, url, outcome: 'failed', httpStatus: 500, errorKind: 'http_status', durationMs: 5, retryInMs: 1000 },
      { attempt: 2, url, outcome: 'fetched', httpStatus: 200, errorKind: null, durationMs: 5, retryInMs: null },
    ]);
  });

  it('reports a 304, and a failure that no retry follows', async () => {
    const reports: FetchAttemptReport[] = [];
    const options = instantOptions({ onAttempt: (report) => reports.push(report), maxRetries: 0 });

    await fetchFeed(server.url('/unchanged'), options);
    await caught(fetchFeed(server.url('/always-503'), options));

    expect(reports).toMatchObject([
      { attempt: 1, outcome: 'not_modified', httpStatus: 304, errorKind: null, retryInMs: null },
      { attempt: 1, outcome: 'failed', httpStatus: 503, errorKind: 'http_status', retryInMs: null },
    ]);
  });

  it('keeps the answer of a failed server out of the error message', async () => {
    hits['/fails-once'] = 0;

    const error = await caught(fetchFeed(server.url('/fails-once'), instantOptions({ maxRetries: 0 })));

    expect(error.message).toBe(`${server.url('/fails-once')}: HTTP 500`);
  });
});
