import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';
import { varyOn } from './vary.js';

/**
 * Answers of 1 KB and more in JSON or text go out compressed to a client that takes it (`Accept-Encoding`): brotli
 * (quality 4, @fastify/compress's default) before gzip. A week's menu of 24 meals is 16 KB of JSON and 2 KB in brotli:
 * on a phone's connection that is the time the students' app waits before it draws the menu. zstd is left out so that
 * the answer does not depend on the Node version (22.15 has it, 20 not); deflate, as browsers have long disagreed on
 * what it means.
 *
 * What is left as it is:
 * - answers below 1 KB (a rating's answer, an error), which compression would make hardly smaller;
 * - `text/event-stream` (the live streams: each event must reach the client when it is written);
 * - answers that carry a `Content-Encoding` already (the pages' static files, gzipped once, on their first request);
 * - request bodies: a compressed one gets the answer it got before (400 `invalid_json`); the contract takes JSON only.
 *
 * The `ETag` stays the tag of the uncompressed answer in every encoding, as @fastify/compress and Express's compression
 * leave it: `If-None-Match` revalidates either one, and the service answers no range requests, the one place where a
 * tag shared by two encodings would matter.
 *
 * Every answer to a GET or HEAD says `Vary: Accept-Encoding`, the small ones and the 304s too, not only those that went
 * out compressed: a shared cache must know from the first answer it keeps that the next client may get other bytes,
 * and a 304 repeats the `Vary` of its 200 (RFC 9110, 15.4.5).
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.method === 'GET' || request.method === 'HEAD') varyOn(reply, 'accept-encoding');
    done(null, payload);
  });
  await app.register(compress, { encodings: ['br', 'gzip'], threshold: 1024, globalDecompression: false });
}
