import { NotModified } from '@canteen-meals/http-contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ifNoneMatchHolds } from '../conditional-requests.js';

const json = 'application/json; charset=utf-8';

/** The response schema of a 304: what a route that answers with an ETag documents beside its 200. */
export const notModified = { 304: NotModified };

/** The Cache-Control of a public answer that shared caches may keep: `max-age`, then `stale-while-revalidate`. */
export function publicCacheControl(caching: {
  readonly maxAgeS: number;
  readonly staleWhileRevalidateS: number;
}): string {
  return `public, max-age=${caching.maxAgeS}, stale-while-revalidate=${caching.staleWhileRevalidateS}`;
}

/**
 * 304 with no body when the request's If-None-Match names the current tag (whatever its Cache-Control says); the JSON
 * text otherwise. The caller sets
 * the ETag and Cache-Control headers first: a 304 carries them too.
 */
export function answerUnlessFresh(request: FastifyRequest, reply: FastifyReply, etag: string, body: string) {
  if (ifNoneMatchHolds(request.headers, etag)) return reply.code(304).send();
  return sendJsonText(reply, body);
}

/** A JSON text serialized beforehand: Fastify sends a string (or its UTF-8 bytes) with a JSON content type as it is. */
export function sendJsonText(reply: FastifyReply, body: string | Buffer) {
  return reply.type(json).send(body);
}
