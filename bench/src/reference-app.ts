import Fastify, { type FastifyInstance, type HTTPMethods } from 'fastify';

/** Constant answers, by route (`POST /api/v1/rate-meal`): JSON text captured from the real server. */
export type ReferenceBodies = Readonly<Record<string, string>>;

/**
 * The reference: a bare Fastify app that answers the bench's routes with a constant body and does no work beyond
 * what Fastify itself does (routing, JSON body parsing, writing the reply). The server is measured against it.
 */
export function buildReferenceApp(bodies: ReferenceBodies): FastifyInstance {
  const app = Fastify({ logger: false });
  for (const [route, body] of Object.entries(bodies)) {
    const [method, url] = route.split(' ') as [HTTPMethods, string];
    app.route({ method, url, handler: (_request, reply) => reply.type('application/json; charset=utf-8').send(body) });
  }
  return app;
}
