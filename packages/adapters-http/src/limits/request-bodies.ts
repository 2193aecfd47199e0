import type { FastifyReply, FastifyRequest, onSendHookHandler, preParsingHookHandler } from 'fastify';
import { HttpError } from '../http-error.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route takes a body without a schema of its own (DELETE /me/data: none, or `{}`): it is read and checked. */
    optionalBody?: boolean;
  }
}

/**
 * How much of a refused request's body is read and dropped so that the client, still sending, gets the answer: a
 * client that cannot write its body (the socket closed under it) reports EPIPE instead of the 413 or 401 it was sent.
 * Far above every body limit (1 MiB); past it, the connection is closed (nginx's lingering close bounds it in time).
 */
export const maxDiscardedBodyBytes = 8 * 1024 * 1024;

/** Whether the request announces a body: a length above 0, or a transfer coding (chunked: a length not known ahead). */
export function announcesBody(request: FastifyRequest): boolean {
  const { 'content-length': length, 'transfer-encoding': coding } = request.headers;
  return coding !== undefined || (length !== undefined && Number(length) !== 0);
}

export function noRouteMessage(request: FastifyRequest): string {
  return `No route ${request.method} ${request.url.split('?')[0]}.`;
}

/**
 * A preParsing hook (after the token and scope checks, before a byte of the body is read): a body sent to a route
 * that does not exist is refused as the 404 it is, and one sent to a route that takes none (GET, DELETE, the probes)
 * as 413 `payload_too_large`, its limit being 0. Without it Fastify read and parsed up to 1 MiB for either.
 */
export const refuseBodiesNotTaken: preParsingHookHandler = (request, _reply, payload, done) => {
  if (!announcesBody(request)) return done(null, payload);
  if (request.is404) return done(new HttpError('not_found', noRouteMessage(request)));
  if (request.routeOptions.schema?.body === undefined && request.routeOptions.config.optionalBody !== true) {
    return done(new HttpError('payload_too_large', `${request.method} ${request.routeOptions.url} takes no body.`));
  }
  done(null, payload);
};

/**
 * An onSend hook for an answer given before the request's body was read to its end (a refusal: too large, no token,
 * no such route): the rest of the body is read and dropped, up to maxDiscardedBodyBytes, and the connection stays
 * open for the next request. Closing at once would make every client still sending see a reset, not the answer.
 * A body announced larger than the bound, or one that grows past it, ends the connection instead.
 */
export const discardUnreadBody: onSendHookHandler = (request, reply, payload, done) => {
  const raw = request.raw;
  if (raw.complete || raw.destroyed || !announcesBody(request)) return done(null, payload);
  if (Number(request.headers['content-length']) > maxDiscardedBodyBytes) {
    reply.header('connection', 'close');
    return done(null, payload);
  }
  keepConnection(reply);
  let discarded = 0;
  raw.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > maxDiscardedBodyBytes) raw.socket?.destroy();
  });
  raw.resume();
  done(null, payload);
};

/** Fastify asks to close after a body it could not parse; once the rest is read, the connection is sound again. */
function keepConnection(reply: FastifyReply): void {
  if (String(reply.getHeader('connection')).toLowerCase() === 'close') reply.removeHeader('connection');
}
