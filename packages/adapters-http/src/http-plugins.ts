import type { Clock } from '@canteen-meals/domain/ports';
import type { FastifyInstance } from 'fastify';
import type { MenuCachingOptions } from './routes/menu-routes.js';

/** What the app hands every plugin package it registers: its clock, its menu caching and its public address. */
export interface HttpPluginContext {
  readonly clock: Clock;
  /** The public menus' caching, defaults applied: a plugin serving menus keeps and marks its answers alike. */
  readonly menuCaching: MenuCachingOptions;
  /** PUBLIC_BASE_URL (no trailing slash), or undefined: absolute links are then built on the request's Host. */
  readonly publicBaseUrl: string | undefined;
  /** Where the JSON API is served (`/api/v1`). */
  readonly apiPrefix: string;
}

/**
 * A package of routes served beside the API (e.g. @canteen-meals/adapters-http-openmensa), given to `buildHttpApp` in
 * `plugins`: registered after the API's public routes, inside the app's hooks, limits and error handling.
 */
export interface HttpAppPlugin {
  readonly name: string;
  readonly register: (app: FastifyInstance, context: HttpPluginContext) => Promise<void>;
  /** Path prefixes outside the API that the rate limits count too (e.g. `/api/v2`). */
  readonly limitedPrefixes?: readonly string[];
  /** Rewrites a request's URL before routing (Fastify's rewriteUrl): the paths its clients send, to its routes'. */
  readonly rewriteUrl?: (url: string) => string;
}
