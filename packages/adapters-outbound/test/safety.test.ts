import type { LookupAddress } from 'node:dns';
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchFeedUnder } from '../src/fetch-feed.js';
import { FeedFetchError, fetchFeed, nonPublicRangeOf, type HostLookup } from '../src/index.js';
import { heidelbergFeed, instantOptions, startTestServer, type TestServer } from './support/test-server.js';

/** A DNS of fixed answers; a name with several answers gives them one after the other (rebinding). */
function fixedLookup(table: Record<string, string | string[][]>): HostLookup {
  const calls: Record<string, number> = {};
  return async (hostname) => {
    const entry = table[hostname];
    if (entry === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    const answers = typeof entry === 'string' ? [[entry]] : entry;
    const call = (calls[hostname] = (calls[hostname] ?? -1) + 1);
    const addresses = answers[Math.min(call, answers.length - 1)]!;
    return addresses.map((address): LookupAddress => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
}

/** The real policy, except that the test server on 127.0.0.1 passes for a public host; 127.0.0.2 stays loopback. */
const policyWithPublicTestServer = (address: string) => (address === '127.0.0.1' ? null : nonPublicRangeOf(address));

let server: TestServer;
let internal: TestServer;

beforeAll(async () => {
  internal = await startTestServer(
    { '/secrets': (_, response) => void response.writeHead(200).end('internal only') },
    '127.0.0.2',
  );
  const redirect = (to: string) => (_: unknown, response: ServerResponse) =>
    void response.writeHead(302, { location: to }).end();
  server = await startTestServer({
    '/feed.xml': (_, response) => void response.writeHead(200).end(heidelbergFeed),
    '/to-internal-name': redirect(`http://internal.example:${internal.port}/secrets`),
    '/to-internal-address': redirect(`http://127.0.0.2:${internal.port}/secrets`),
    '/to-same-name': redirect(`http://rebinding.example:${internal.port}/secrets`),
  });
});
afterAll(async () => {
  await server.close();
  await internal.close();
});

const caught = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.fail('expected a FeedFetchError'),
    (error: unknown) => {
      expect(error).toBeInstanceOf(FeedFetchError);
      return error as FeedFetchError;
    },
  );
const publicOnly = (overrides = {}) => instantOptions({ allowPrivateNetworks: false, ...overrides });

describe('safety: only public addresses, checked on the connection', () => {
  it.each([
    ['an IPv4 literal', () => server.url('/feed.xml')],
    ['an IPv4-mapped IPv6 literal', () => `http://[::ffff:127.0.0.1]:${server.port}/feed.xml`],
    ['the name localhost (through the system resolver)', () => `http://localhost:${server.port}/feed.xml`],
  ])('refuses %s on loopback, without connecting', async (_, url) => {
    const before = server.connections();

    const error = await caught(fetchFeed(url(), publicOnly()));

    expect(error.kind).toBe('forbidden_address');
    expect(server.connections()).toBe(before);
  });

  it('refuses a public-looking name that resolves to loopback; the message names neither the address nor the range', async () => {
    const before = server.connections();
    const url = `http://feeds.example:${server.port}/feed.xml`;

    const error = await caught(fetchFeed(url, publicOnly({ lookup: fixedLookup({ 'feeds.example': '127.0.0.1' }) })));

    expect(error.kind).toBe('forbidden_address');
    expect(error.message).toBe(
      `${url}: the host is not on the public internet (OUTBOUND_ALLOW_PRIVATE_NETWORKS=1 allows it)`,
    );
    expect(server.connections()).toBe(before);
  });

  it('checks https connections the same way', async () => {
    const before = server.connections();

    const error = await caught(
      fetchFeed(
        `https://feeds.example:${server.port}/feed.xml`,
        publicOnly({ lookup: fixedLookup({ 'feeds.example': '127.0.0.1' }) }),
      ),
    );

    expect(error.kind).toBe('forbidden_address');
    expect(server.connections()).toBe(before);
  });

  it('refuses a name when any of its addresses is not public', async () => {
    const lookup = fixedLookup({ 'mixed.example': [['8.8.8.8', '10.0.0.1']] });

    const error = await caught(
      fetchFeed('http://mixed.example/feed.xml', publicOnly({ lookup, connectTimeoutMs: 200 })),
    );

    expect(error.kind).toBe('forbidden_address');
  });

  it('reaches a private address with allowPrivateNetworks, through the given lookup', async () => {
    const lookup = fixedLookup({ 'feeds.example': '127.0.0.1' });

    const result = await fetchFeed(
      `http://feeds.example:${server.port}/feed.xml`,
      instantOptions({ allowPrivateNetworks: true, lookup }),
    );

    expect(result).toMatchObject({ status: 'fetched', body: heidelbergFeed });
  });

  it('reports a refused connection by its reason alone, not by the address it tried', async () => {
    const closed = await startTestServer({});
    await closed.close();
    const url = `http://closed.example:${closed.port}/feed.xml`;

    const error = await caught(
      fetchFeed(url, instantOptions({ lookup: fixedLookup({ 'closed.example': '127.0.0.1' }), maxRetries: 0 })),
    );

    expect(error).toMatchObject({ kind: 'network', message: `${url}: connection refused`, httpStatus: null });
  });

  it('reports a name that does not resolve as a network error', async () => {
    const error = await caught(
      fetchFeed('http://nowhere.example/', instantOptions({ lookup: fixedLookup({}), maxRetries: 0 })),
    );

    expect(error).toMatchObject({ kind: 'network', message: 'http://nowhere.example/: host not found' });
  });
});

describe('safety: every redirect hop is checked again', () => {
  const lookup = fixedLookup({ 'feeds.example': '127.0.0.1', 'internal.example': '127.0.0.2' });
  const feedUrl = (path: string) => `http://feeds.example:${server.port}${path}`;

  it('follows a redirect to an internal host only with allowPrivateNetworks (the setup reaches it)', async () => {
    const result = await fetchFeed(
      feedUrl('/to-internal-name'),
      instantOptions({ allowPrivateNetworks: true, lookup }),
    );

    expect(result).toMatchObject({ status: 'fetched', body: Buffer.from('internal only') });
  });

  it.each([
    '/to-internal-name',
    '/to-internal-address',
  ])('refuses a public host redirecting to a loopback one (%s), without connecting to it', async (path) => {
    const before = internal.connections();

    const error = await caught(fetchFeedUnder(policyWithPublicTestServer, feedUrl(path), publicOnly({ lookup })));

    expect(error).toMatchObject({
      kind: 'forbidden_address',
      url: `http://${path === '/to-internal-name' ? 'internal.example' : '127.0.0.2'}:${internal.port}/secrets`,
    });
    expect(internal.connections()).toBe(before);
  });

  it('checks the address of each connection, not the name: a name that rebinds to loopback after its first answer is refused', async () => {
    const rebinding = fixedLookup({ 'rebinding.example': [['127.0.0.1'], ['127.0.0.2']] });
    const before = internal.connections();

    const error = await caught(
      fetchFeedUnder(
        policyWithPublicTestServer,
        `http://rebinding.example:${server.port}/to-same-name`,
        publicOnly({ lookup: rebinding }),
      ),
    );

    expect(error.kind).toBe('forbidden_address');
    expect(internal.connections()).toBe(before);
  });
});
