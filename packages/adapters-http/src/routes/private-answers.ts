import type { FastifyInstance } from 'fastify';

/** Every answer of these routes holds the caller's own state: no shared cache may keep it. */
export function answerPrivately(app: FastifyInstance): void {
  app.addHook('onSend', (_request, reply, payload, done) => {
    reply.header('cache-control', 'private, no-store');
    done(null, payload);
  });
}
