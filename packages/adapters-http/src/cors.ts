import fastifyCors from '@fastify/cors';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** What a browser app may send to the API, and which answer headers its script may read. */
export const corsMethods = ['GET', 'POST', 'PUT', 'DELETE'] as const;
export const corsAllowedHeaders = ['authorization', 'content-type', 'if-none-match'] as const;
export const corsExposedHeaders = [
  'retry-after',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'x-request-id',
] as const;
/** Seconds a browser may reuse a preflight's answer (browsers cap it at 2 h or less). */
const preflightMaxAgeS = 600;

/**
 * CORS for the API only, for exactly the listed origins (`https://app.example.com`). A request from another origin,
 * or to a path outside the API, gets no Access-Control-* header at all; its preflight finds no route (404
 * not_found, as without CORS). Registered before the token check and the rate limiter: a preflight carries no token
 * and is answered before either runs, and a 429 or 401 still carries the headers its script needs to read it.
 */
export async function registerCors(
  app: FastifyInstance,
  options: { readonly origins: readonly string[]; readonly apiPrefix: string },
): Promise<void> {
  if (options.origins.length === 0) return;
  const listed = new Set(options.origins);
  const { apiPrefix } = options;
  const forTheApi = (request: FastifyRequest) => {
    const path = request.url.split('?')[0]!;
    return path === apiPrefix || path.startsWith(`${apiPrefix}/`);
  };
  await app.register(fastifyCors, {
    hideOptionsRoute: true,
    delegator: (request, callback) => {
      const origin = request.headers.origin;
      callback(null, {
        // true reflects the request's own origin, which is one of the listed ones; false adds no header.
        origin: origin !== undefined && listed.has(origin) && forTheApi(request),
        methods: [...corsMethods],
        allowedHeaders: [...corsAllowedHeaders],
        exposedHeaders: [...corsExposedHeaders],
        maxAge: preflightMaxAgeS,
        strictPreflight: false,
      });
    },
  });
}
