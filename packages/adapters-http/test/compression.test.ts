import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { brotliDecompressSync, gzipSync, gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { createHmacTokenVerifier, signHmacToken } from '../src/index.js';
import { buildAppWith } from './app-with.js';

const secret = 'compression-test-secret-of-at-least-32-b';
const verifyToken = createHmacTokenVerifier({ secret });
const bearer = `Bearer ${signHmacToken(secret, { sub: 'alice' })}`;

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** A listening app: the bytes below are what a socket carries, not what `inject` hands over. */
async function listening(compression?: boolean): Promise<string> {
  app = (await buildAppWith({ verifyToken, ...(compression === undefined ? {} : { compression }) })).app;
  return app.listen({ host: '127.0.0.1', port: 0 });
}

interface RawAnswer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly bytes: Buffer;
}

/** One request through node:http, which decodes nothing. */
function raw(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: Buffer } = {},
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const sent = httpRequest(url, { method: options.method ?? 'GET', headers: options.headers ?? {} }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () =>
        resolve({ status: answer.statusCode!, headers: answer.headers, bytes: Buffer.concat(chunks) }),
      );
      answer.on('error', reject);
    });
    sent.on('error', reject);
    sent.end(options.body);
  });
}

const varyOf = (headers: IncomingHttpHeaders) =>
  String(headers.vary ?? '')
    .split(',')
    .map((field) => field.trim().toLowerCase());

describe('compressed answers (COMPRESSION_ENABLED)', () => {
  it('sends a JSON answer of 1 KB and more in brotli when the client takes it, else gzip, else as it is: the same JSON each time', async () => {
    const base = await listening();
    const plain = await raw(`${base}/api/v1/labels`);
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.bytes.length).toBeGreaterThan(1024);
    expect(Number(plain.headers['content-length'])).toBe(plain.bytes.length);
    // Uncompressed, and still varying on Accept-Encoding: a shared cache that keeps it must not give it to everyone.
    expect(varyOf(plain.headers)).toContain('accept-encoding');

    const br = await raw(`${base}/api/v1/labels`, { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(varyOf(br.headers)).toContain('accept-encoding');
    expect(br.bytes.length).toBeLessThan(plain.bytes.length / 3);
    expect(brotliDecompressSync(br.bytes).equals(plain.bytes)).toBe(true);

    const gzip = await raw(`${base}/api/v1/labels`, { headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.bytes).equals(plain.bytes)).toBe(true);

    // An encoding the server does not send (zstd on any Node version, deflate) gets the answer as it is.
    for (const encoding of ['zstd', 'deflate', 'identity']) {
      const other = await raw(`${base}/api/v1/labels`, { headers: { 'accept-encoding': encoding } });
      expect(other.headers['content-encoding'], encoding).toBeUndefined();
      expect(other.bytes.equals(plain.bytes), encoding).toBe(true);
    }
  });

  it('keeps the ETag of the uncompressed answer, so that If-None-Match revalidates in any encoding', async () => {
    const base = await listening();
    const plain = await raw(`${base}/api/v1/labels`);
    const br = await raw(`${base}/api/v1/labels`, { headers: { 'accept-encoding': 'br' } });
    expect(plain.headers.etag).toBeDefined();
    expect(br.headers.etag).toBe(plain.headers.etag);
    const revalidated = await raw(`${base}/api/v1/labels`, {
      headers: { 'accept-encoding': 'br', 'if-none-match': String(br.headers.etag) },
    });
    expect(revalidated.status).toBe(304);
    expect(revalidated.bytes.length).toBe(0);
    expect(revalidated.headers['content-encoding']).toBeUndefined();
    // The 304 repeats its 200's Vary (RFC 9110, 15.4.5).
    expect(varyOf(revalidated.headers)).toEqual(varyOf(br.headers));
  });

  it("answers Node's fetch, which asks for compression and decodes it, with the same JSON", async () => {
    const base = await listening();
    const plain = JSON.parse((await raw(`${base}/api/v1/labels`)).bytes.toString('utf8')) as unknown;
    const answer = await fetch(`${base}/api/v1/labels`);
    expect(answer.headers.get('content-encoding')).toMatch(/^(br|gzip)$/);
    expect(await answer.json()).toEqual(plain);
  });

  it('leaves small answers as they are: a rating answer and an error stay below 1 KB', async () => {
    const base = await listening();
    const rated = await raw(`${base}/api/v1/rate-meal`, {
      method: 'POST',
      headers: { 'accept-encoding': 'br, gzip', 'content-type': 'application/json', authorization: bearer },
      body: Buffer.from(JSON.stringify({ meal_id: 1, rating: 4 })),
    });
    expect(rated.status).toBe(200);
    expect(rated.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(rated.bytes.toString('utf8'))).toMatchObject({
      status: 'success',
      data: { rating_count: 1, rating_personal: 4 },
    });

    const missing = await raw(`${base}/api/v1/nowhere`, { headers: { 'accept-encoding': 'br, gzip' } });
    expect(missing.status).toBe(404);
    expect(missing.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(missing.bytes.toString('utf8'))).toMatchObject({ status: 'error', error: { code: 'not_found' } });
  });

  it('compresses nothing when switched off', async () => {
    const base = await listening(false);
    const answer = await raw(`${base}/api/v1/labels`, { headers: { 'accept-encoding': 'br, gzip' } });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(varyOf(answer.headers)).not.toContain('accept-encoding');
    expect(JSON.parse(answer.bytes.toString('utf8'))).toMatchObject({ status: 'success' });
  });

  it('decompresses no request body: a gzipped one gets the answer it got without compression', async () => {
    const sendGzipped = async (base: string) =>
      raw(`${base}/api/v1/rate-meal`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-encoding': 'gzip', authorization: bearer },
        body: gzipSync(JSON.stringify({ meal_id: 1, rating: 4 })),
      });
    const withCompression = await sendGzipped(await listening());
    await app!.close();
    const without = await sendGzipped(await listening(false));
    expect(withCompression.status).toBeGreaterThanOrEqual(400);
    expect(withCompression.status).toBe(without.status);
    expect(JSON.parse(withCompression.bytes.toString('utf8'))).toEqual(JSON.parse(without.bytes.toString('utf8')));
  });
});
