import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, type FastifySchema, type RouteOptions } from 'fastify';
import { httpStatusOf } from '@canteen-meals/http-contract';
import { webhookDocs } from './webhook-docs.js';

const description = `Mark canteen meals as favourites and rate them 1 to 5.

Every answer is an envelope: \`{"status":"success","data":...}\` or
\`{"status":"error","error":{"code":"...","message":"..."}}\`. Branch on \`code\` (listed per route and status), never on
\`message\`. Routes under /api/v1 need \`Authorization: Bearer <JWT>\` (a \`sub\` claim, signed as the server is
configured: an HS256 shared secret, an RS256/ES256 public key or a JWKS; admin routes also need \`meals:write\` in the
space-separated \`scope\` claim, the reports \`meals:read-reports\` or \`meals:write\`) and are rate limited. The
reports answer CSV; their refusals are the envelope. Request bodies are validated strictly: no type coercion and no
unknown fields.

Every error code, with its HTTP status (each operation lists the ones it can answer):

| HTTP | code |
|---|---|
${Object.entries(httpStatusOf)
  .sort(([, a], [, b]) => a - b)
  .map(([code, status]) => `| ${status} | \`${code}\` |`)
  .join('\n')}`;

/** Where the app serves its API, Swagger UI, and the name of its bearer security scheme. */
export interface DocsAppOptions {
  readonly apiPrefix: string;
  readonly docsPath: string;
  readonly bearerAuth: string;
}

/**
 * The app that makes the OpenAPI document and serves Swagger UI, built on the first request for either (see
 * api-docs.ts): the generator is handed `routes`, the service's routes as they were registered, in their order. They
 * never answer here, so their schemas are not compiled.
 */
export async function buildDocsApp(routes: readonly RouteOptions[], options: DocsAppOptions): Promise<FastifyInstance> {
  const { apiPrefix, docsPath, bearerAuth } = options;
  const app = Fastify({ logger: false });
  app.setValidatorCompiler(() => () => true);
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Meals API', version: '1.0.0', description },
      components: {
        securitySchemes: {
          [bearerAuth]: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            description:
              'A JWT with a `sub` claim; with a shared secret, `pnpm issue-token <sub>` signs one for local use.',
          },
        },
      },
      tags: [
        { name: 'meals', description: 'Marking and rating, for every authenticated user' },
        {
          name: 'admin',
          description: 'Menu management, with the meals:write scope; reports, with meals:read-reports or meals:write',
        },
        {
          name: 'kitchen',
          description: 'What the kitchen says during service, with the meals:kitchen or meals:write scope',
        },
        { name: 'canteens', description: 'Canteens and their menus, public: no token needed' },
        { name: 'labels', description: 'The label vocabulary of allergens, additives, diets and ingredients, public' },
        { name: 'operations', description: 'Unauthenticated routes for operators' },
      ],
      webhooks: webhookDocs,
    },
    // The same rule as the authentication hook: /api/v1 needs a token, nothing outside it does, except the public
    // routes, which say so with `security: []`.
    transform: ({ schema = {}, url }) => {
      const authenticated = (url === apiPrefix || url.startsWith(`${apiPrefix}/`)) && schema.security === undefined;
      const documented: FastifySchema = {
        ...schema,
        tags: schema.tags ?? [tagOf(url, apiPrefix)],
        ...(authenticated ? { security: [{ [bearerAuth]: [] }] } : {}),
      };
      return { schema: documented, url };
    },
    // A tag without operations (operators' routes switched off, say) would only be an empty heading.
    transformObject: (documentObject) => {
      const document = 'openapiObject' in documentObject ? documentObject.openapiObject : documentObject.swaggerObject;
      const used = new Set(
        Object.values(document.paths ?? {}).flatMap((operations) =>
          Object.values(operations ?? {}).flatMap((operation) => (operation as { tags?: string[] }).tags ?? []),
        ),
      );
      return { ...document, tags: (document.tags ?? []).filter((tag) => used.has(tag.name)) } as typeof document;
    },
  });

  await app.register(fastifySwaggerUi, {
    routePrefix: docsPath,
    uiConfig: { deepLinking: true },
    // A Content-Security-Policy on the page and its assets: scripts from this origin and the page's own inline
    // script (by hash) only, no plugins, no framing by others. Without upgrade-insecure-requests, which would
    // send the page's requests to https:// on a plain-http development server.
    staticCSP: true,
    transformStaticCSP: (header) =>
      header
        .replace(/\s*upgrade-insecure-requests;?/, '')
        .replace(/style-src ([^;]*);/, `style-src $1 '${swaggerLogoStyle}';`),
  });
  for (const route of routes) {
    // A hidden route is not in the document; HEAD routes are Fastify's copies of GET routes, left out of it as well.
    if (route.method === 'HEAD' || route.schema?.hide === true) continue;
    app.route({
      method: route.method,
      url: route.url,
      schema: route.schema ?? {},
      ...(route.config && { config: route.config }),
      exposeHeadRoute: false,
      handler: notServed,
    });
  }
  await app.ready();
  return app;
}

/**
 * The one inline style Swagger UI writes: a `<style>` inside the logo's SVG in its top bar (swagger-ui-standalone-
 * preset.js), allowed by its hash, so the page keeps its policy and logs no violation. Another version of
 * Swagger UI may change it: apps/server/test/api-docs.browser.test.ts then fails.
 */
const swaggerLogoStyle = 'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w=';

async function notServed(): Promise<never> {
  throw new Error("the docs app only describes the service's routes");
}

function tagOf(url: string, apiPrefix: string): string {
  if (url.startsWith(`${apiPrefix}/admin/`)) return 'admin';
  if (url.startsWith(`${apiPrefix}/kitchen/`)) return 'kitchen';
  if (url.startsWith(`${apiPrefix}/`)) return 'meals';
  return 'operations';
}
