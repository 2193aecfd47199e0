import fastifyRateLimit, { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { Clock } from '@canteen-meals/domain/ports';
import { HttpError } from '../http-error.js';
import { sharedRateLimitStore, type SharedRateLimitOptions } from './shared-rate-limit-store.js';

/** Requests per minute; 0 turns that limit off. */
export interface RateLimits {
  /** Per verified user (the token's sub), on every request that carries a valid token. */
  readonly userPerMinute: number;
  /** Per client address, on every other request: no token, a refused token, an unknown route. */
  readonly ipPerMinute: number;
}

const oneMinuteMs = 60_000;
const userKeyPrefix = 'user:';

export interface RateLimitScope {
  /**
   * Routes at or under these paths are limited (the API, and the API docs: reads like any other), and so are unknown
   * routes; other routes (probes, metrics, CORS preflights) are not.
   */
  readonly limitedPrefixes: readonly string[];
  /**
   * Where the counts live: absent, in this process (@fastify/rate-limit's own store, a window from each key's first
   * request); given, in the shared count every instance adds to, on windows aligned by `clock`.
   */
  readonly shared?: { readonly options: SharedRateLimitOptions; readonly clock: Clock };
}

/**
 * Adds the rate limiter as an onRequest hook. It must come after `identifyCaller`, so that it keys on the verified
 * sub; whoever is not identified is counted by address (as Fastify's trustProxy setting determines it), so a caller
 * cannot escape the address limit with a made-up token. Operational routes are exempt: a load balancer's health
 * checks and a metrics scraper must not be refused because anonymous traffic from the same address used up its quota.
 */
export async function registerRateLimits(
  app: FastifyInstance,
  limits: RateLimits,
  scope: RateLimitScope,
): Promise<void> {
  if (limits.userPerMinute === 0 && limits.ipPerMinute === 0) return;
  await app.register(fastifyRateLimit, {
    global: false,
    // Counts for up to 10 000 callers at once; past that, the least recently seen are forgotten.
    cache: 10_000,
    ...(scope.shared && { store: sharedRateLimitStore(scope.shared.options, scope.shared.clock) }),
    errorResponseBuilder: (_request, context) =>
      new HttpError('rate_limited', `Too many requests: retry in ${context.after}.`),
  });
  const limitOf = (key: string) => (key.startsWith(userKeyPrefix) ? limits.userPerMinute : limits.ipPerMinute);
  const exempt = (request: FastifyRequest) => {
    const route = request.routeOptions.url;
    return (
      route !== undefined && !scope.limitedPrefixes.some((prefix) => route === prefix || route.startsWith(`${prefix}/`))
    );
  };
  const limiter = app.rateLimit({
    timeWindow: oneMinuteMs,
    keyGenerator: (request: FastifyRequest) =>
      request.principal === null ? `ip:${normalizeIP(request.ip)}` : `${userKeyPrefix}${request.principal.userId}`,
    max: (_request, key) => limitOf(key),
    allowList: (request, key) => limitOf(key) === 0 || exempt(request),
  });
  app.addHook('onRequest', limiter as unknown as onRequestAsyncHookHandler);
}
