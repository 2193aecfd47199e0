import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FeedFetchError, fetchFeed } from '../src/index.js';
import { heidelbergFeed, instantOptions, startTestServer, type TestServer } from './support/test-server.js';

const etag = '"triplex-2026-08-03"';
const lastModified = 'Mon, 03 Aug 2026 06:00:00 GMT';

let server: TestServer;
beforeAll(async () => {
  const redirect = (to: string) => (_: unknown, response: import('node:http').ServerResponse) =>
    void response.writeHead(302, { location: to }).end();
  server = await startTestServer({
    '/feed.xml': (request, response) => {
      if (request.headers['if-none-match'] === etag || request.headers['if-modified-since'] === lastModified) {
        response.writeHead(304, { etag }).end();
        return;
      }
      response
        .writeHead(200, { 'content-type': 'application/xml', etag, 'last-modified': lastModified })
        .end(heidelbergFeed);
    },
    '/bare.xml': (_, response) => void response.writeHead(200).end('<openmensa/>'),
    '/one': redirect('/feed.xml'),
    '/three': redirect('/two'),
    '/two': redirect('/one'),
    '/four': redirect('/three'),
    '/relative': redirect('../feed.xml?from=relative'),
    '/to-ftp': redirect('ftp://127.0.0.1/feed.xml'),
    '/to-nowhere': redirect('http://'),
    '/not-modified-without-asking': (_, response) => void response.writeHead(304).end(),
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

describe('fetchFeed: a feed, conditional requests', () => {
  it('answers a 200 with the body, its validators, the status and the final URL', async () => {
    const result = await fetchFeed(server.url('/feed.xml'), instantOptions());

    expect(result).toEqual({
      status: 'fetched',
      body: heidelbergFeed,
      etag,
      lastModified,
      httpStatus: 200,
      finalUrl: server.url('/feed.xml'),
    });
  });

  it('answers null validators when the server sends none', async () => {
    const result = await fetchFeed(server.url('/bare.xml'), instantOptions());

    expect(result).toMatchObject({ status: 'fetched', etag: null, lastModified: null });
  });

  it('sends the previous ETag as If-None-Match and answers a 304 as not_modified, without a body', async () => {
    const result = await fetchFeed(server.url('/feed.xml'), instantOptions({ etag }));

    expect(result).toEqual({ status: 'not_modified' });
    expect(server.requests.at(-1)?.headers['if-none-match']).toBe(etag);
  });

  it('sends the previous Last-Modified as If-Modified-Since', async () => {
    const result = await fetchFeed(server.url('/feed.xml'), instantOptions({ lastModified }));

    expect(result).toEqual({ status: 'not_modified' });
    expect(server.requests.at(-1)?.headers['if-modified-since']).toBe(lastModified);
  });

  it('sends no condition when it holds no copy, and asks for compressed bodies with its user agent', async () => {
    await fetchFeed(
      server.url('/feed.xml'),
      instantOptions({ etag: null, lastModified: null, userAgent: 'meals-test/1' }),
    );

    const { headers } = server.requests.at(-1)!;
    expect(headers['if-none-match']).toBeUndefined();
    expect(headers['if-modified-since']).toBeUndefined();
    expect(headers['accept-encoding']).toBe('gzip, deflate, br');
    expect(headers['user-agent']).toBe('meals-test/1');
  });

  it('takes a URL object as well as a string', async () => {
    const result = await fetchFeed(new URL(server.url('/bare.xml')), instantOptions());

    expect(result.status).toBe('fetched');
  });
});

describe('fetchFeed: redirects', () => {
  it('follows up to 3 redirects and names the URL that answered', async () => {
    const result = await fetchFeed(server.url('/three'), instantOptions());

    expect(result).toMatchObject({ status: 'fetched', body: heidelbergFeed, finalUrl: server.url('/feed.xml') });
  });

  it('resolves a relative Location against the URL that sent it', async () => {
    const result = await fetchFeed(server.url('/relative'), instantOptions());

    expect(result).toMatchObject({ status: 'fetched', finalUrl: server.url('/feed.xml?from=relative') });
  });

  it('refuses a 4th redirect as too_many_redirects, and does not follow it', async () => {
    const before = server.requests.length;

    const error = await caught(fetchFeed(server.url('/four'), instantOptions()));

    expect(error.kind).toBe('too_many_redirects');
    expect(server.requests.slice(before).map((request) => request.url)).toEqual(['/four', '/three', '/two', '/one']);
  });

  it('takes another limit: maxRedirects 0 refuses the first one', async () => {
    const error = await caught(fetchFeed(server.url('/one'), instantOptions({ maxRedirects: 0 })));

    expect(error.kind).toBe('too_many_redirects');
  });

  it('checks the scheme of every hop: a redirect to ftp is refused as invalid_url', async () => {
    const error = await caught(fetchFeed(server.url('/to-ftp'), instantOptions()));

    expect(error).toMatchObject({ kind: 'invalid_url', url: 'ftp://127.0.0.1/feed.xml' });
  });

  it('refuses a Location that is no URL as invalid_url', async () => {
    const error = await caught(fetchFeed(server.url('/to-nowhere'), instantOptions()));

    expect(error).toMatchObject({ kind: 'invalid_url', message: 'http://: not a valid URL' });
  });

  it('answers a 304 as not_modified even when it asked nothing (the caller keeps what it has)', async () => {
    expect(await fetchFeed(server.url('/not-modified-without-asking'), instantOptions())).toEqual({
      status: 'not_modified',
    });
  });
});

describe('fetchFeed: URLs', () => {
  it.each([
    ['file:///etc/passwd', 'the scheme file: is not allowed (http and https only)'],
    ['ftp://example.org/feed.xml', 'the scheme ftp: is not allowed (http and https only)'],
    ['gopher://example.org/', 'the scheme gopher: is not allowed (http and https only)'],
    ['data:text/xml,<openmensa/>', 'the scheme data: is not allowed (http and https only)'],
    ['feed.xml', 'not a valid URL'],
    ['http://', 'not a valid URL'],
  ])('refuses %s as invalid_url, before any connection', async (url, reason) => {
    const before = server.connections();

    const error = await caught(fetchFeed(url, instantOptions()));

    expect(error.kind).toBe('invalid_url');
    expect(error.message).toBe(`${url}: ${reason}`);
    expect(server.connections()).toBe(before);
  });

  it('refuses credentials in the URL, and keeps them out of the message', async () => {
    const error = await caught(fetchFeed(`http://user:secret@127.0.0.1:${server.port}/feed.xml`, instantOptions()));

    expect(error.kind).toBe('invalid_url');
    expect(error.message).not.toContain('secret');
  });
});
