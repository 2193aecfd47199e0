import Fastify, { type FastifyInstance, type HTTPMethods } from 'fastify';
import type { HeaderValues } from './processes.js';

/** One answer of the real server, as the reference replays it on every request of its route. */
export interface RecordedAnswer {
  readonly status: number;
  /** Without the headers Node and Fastify set per response (see recording.ts): the reference sets those itself. */
  readonly headers: HeaderValues;
  /** Empty for an answer without a body (304). */
  readonly body: string;
}

/** Recorded answers by route (`POST /api/v1/rate-meal`): the routes of one scenario. */
export type ReferenceAnswers = Readonly<Record<string, RecordedAnswer>>;

/**
 * The reference: a bare Fastify app that answers the bench's routes with the server's status, headers and body and
 * does no work beyond what Fastify itself does (routing, JSON body parsing, writing the reply). The server is
 * measured against it: the same bytes and the same headers, the machine's ceiling for that answer.
 *
 * It serves one scenario, so method and path tell its routes apart: the public menu and its revalidation share a
 * path, and each gets a reference of its own rather than a reference that inspects request headers.
 */
export function buildReferenceApp(answers: ReferenceAnswers): FastifyInstance {
  const app = Fastify({ logger: false });
  for (const [route, answer] of Object.entries(answers)) {
    const [method, url] = route.split(' ') as [HTTPMethods, string];
    // No payload at all for an empty body, so that a 304 goes out as Fastify sends one: without content-length.
    const body = answer.body === '' ? undefined : answer.body;
    const headers = answer.headers as Record<string, string | string[]>;
    app.route({ method, url, handler: (_request, reply) => reply.code(answer.status).headers(headers).send(body) });
  }
  return app;
}
