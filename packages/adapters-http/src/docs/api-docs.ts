// The `hide` of a route's schema (@fastify/swagger's): the docs routes, and others, are not in the document.
import type {} from '@fastify/swagger';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';

export const openApiPath = '/openapi.json';
export const docsPath = '/docs';
export const bearerAuth = 'bearerAuth';

/** What answers the docs routes, and what its answer keeps of its headers (the connection's are this server's own). */
const connectionHeaders = new Set(['connection', 'keep-alive', 'transfer-encoding', 'date']);

/**
 * Serves the OpenAPI document at /openapi.json and Swagger UI at /docs, outside the authenticated scope and hidden
 * from the document they serve. Registered before any route, it sees every route registered afterwards (here or by
 * any later plugin). The generator and Swagger UI (with its static files and YAML) are loaded on the first request for
 * either, in an app of their own (@canteen-meals/adapters-http-docs), not at start: most processes never serve them.
 */
export async function registerApiDocs(app: FastifyInstance, options: { readonly apiPrefix: string }): Promise<void> {
  const routes: RouteOptions[] = [];
  app.addHook('onRoute', (route) => {
    routes.push(route);
  });
  let docsApp: Promise<FastifyInstance> | undefined;
  const docs = () =>
    (docsApp ??= import('@canteen-meals/adapters-http-docs')
      .then(({ buildDocsApp }) => buildDocsApp(routes, { ...options, docsPath, bearerAuth }))
      .catch((error: unknown) => {
        docsApp = undefined;
        throw error;
      }));
  const forward = async (request: FastifyRequest, reply: FastifyReply) => {
    const answer = await (await docs()).inject({
      method: request.method as 'GET' | 'HEAD',
      url: request.url,
      headers: request.headers,
    });
    const csp = answer.headers['content-security-policy'];
    // A file Swagger UI does not have is this server's 404, in its envelope (with Swagger UI's policy, as before).
    if (answer.statusCode === 404)
      return (csp === undefined ? reply : reply.header('content-security-policy', csp)).callNotFound();
    const headers = Object.fromEntries(Object.entries(answer.headers).filter(([name]) => !connectionHeaders.has(name)));
    reply.code(answer.statusCode).headers(headers);
    // Without a body (HEAD, a redirect, 304) nothing is sent, so that Fastify adds no type and keeps the length.
    return answer.rawPayload.length === 0 ? reply.send() : reply.send(answer.rawPayload);
  };
  app.get(openApiPath, { schema: { hide: true } }, async () => (await docs()).swagger());
  // HEAD is forwarded too, not answered by Fastify's copy of the GET route, which would count the length of no body.
  for (const url of [docsPath, `${docsPath}/`, `${docsPath}/*`]) {
    app.route({ method: ['GET', 'HEAD'], url, exposeHeadRoute: false, schema: { hide: true }, handler: forward });
  }
}
