import type { FastifyReply } from 'fastify';

/**
 * Adds `field` to the answer's `Vary`, keeping what another part of the app put there before (CORS puts `Origin`
 * there when it names allowed origins): replacing it let a shared cache give one origin's answer, with its
 * `Access-Control-Allow-Origin`, to another.
 */
export function varyOn(reply: FastifyReply, field: string): FastifyReply {
  const current = reply.getHeader('vary');
  if (current === undefined) return reply.header('vary', field);
  const fields = String(current)
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  if (fields.some((name) => name === '*' || name.toLowerCase() === field.toLowerCase())) return reply;
  return reply.header('vary', [...fields, field].join(', '));
}
