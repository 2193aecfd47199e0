import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FeedFetchError, fetchFeed } from '../src/index.js';
import { instantOptions, startTestServer, type TestServer } from './support/test-server.js';

// What the service needs of a fetch beyond its own limits: its caller can end it (a run's deadline, a shutdown), and
// what it reports is fit for a log line (no API key from the query) and complete (the status of a refused 200).
let server: TestServer;
let hanging: () => void = () => {};
const hangingSeen = () => new Promise<void>((resolve) => (hanging = resolve));

beforeAll(async () => {
  server = await startTestServer({
    '/hang': () => hanging(),
    '/down': (_, response) => void response.writeHead(503).end('down'),
    '/big': (_, response) => void response.writeHead(200).end(Buffer.alloc(2000, 0x61)),
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

describe('fetchFeed: ended by its caller', () => {
  it('ends a fetch that hangs when the signal aborts, as "cancelled" with the reason given, and retries nothing', async () => {
    const controller = new AbortController();
    const seen = hangingSeen();
    const options = instantOptions({ signal: controller.signal, totalTimeoutMs: 600_000 });
    const fetching = caught(fetchFeed(server.url('/hang'), options));
    await seen;
    controller.abort('the service is stopping');
    const error = await fetching;
    expect(error).toMatchObject({ kind: 'cancelled', message: `${server.url('/hang')}: the service is stopping` });
    expect(options.sleeps).toEqual([]);
  });

  it('ends the wait before a retry too', async () => {
    const controller = new AbortController();
    const attempts: number[] = [];
    const error = await caught(
      fetchFeed(server.url('/down'), {
        ...instantOptions({ signal: controller.signal }),
        // A wait that would never end by itself: only the signal ends it.
        sleep: () => new Promise(() => {}),
        onAttempt: (report) => {
          attempts.push(report.attempt);
          controller.abort("the run's deadline passed");
        },
      }),
    );
    expect(error).toMatchObject({ kind: 'cancelled', reason: "the run's deadline passed" });
    expect(attempts).toEqual([1]);
  });

  it('does not start when the signal has aborted already', async () => {
    const before = server.connections();
    const error = await caught(fetchFeed(server.url('/down'), instantOptions({ signal: AbortSignal.abort('late') })));
    expect(error.kind).toBe('cancelled');
    expect(server.connections()).toBe(before);
  });
});

describe('fetchFeed: what it reports', () => {
  it('keeps the status of a 200 whose body it refused', async () => {
    const error = await caught(fetchFeed(server.url('/big'), instantOptions({ maxBodyBytes: 1000 })));
    expect(error).toMatchObject({ kind: 'too_large', httpStatus: 200 });
  });

  it('names the URL without its query and fragment, where API keys go', async () => {
    const error = await caught(
      fetchFeed(server.url('/down?api_key=s3cr3t&canteen=1#token=t0k3n'), instantOptions({ maxRetries: 0 })),
    );
    expect(error.message).toBe(`${server.url('/down')}: HTTP 503`);
    expect(error.url).toBe(server.url('/down'));
  });

  it('cuts a very long URL in its message', async () => {
    const long = server.url(`/${'p'.repeat(3000)}`);
    const error = await caught(fetchFeed(long, instantOptions({ maxRetries: 0 })));
    expect(error.url.length).toBeLessThanOrEqual(200);
    expect(error.message).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/p+…: HTTP 404$/);
  });
});
