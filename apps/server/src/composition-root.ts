import 'reflect-metadata';
import {
  buildHttpApp,
  buildMetricsApp,
  createHmacTokenVerifier,
  createJwksTokenVerifier,
  createPublicKeyTokenVerifier,
  type TokenVerifier,
} from '@canteen-meals/adapters-http';
import {
  EraseUserData,
  ExportUserData,
  GetMeal,
  GetMeals,
  ListMarkedMeals,
  ListRatedMeals,
  MarkMeal,
  RateMeal,
  systemClock,
  UpsertMeals,
  type Clock,
} from '@canteen-meals/domain';
import type { FastifyInstance } from 'fastify';
import { container as rootContainer, instanceCachingFactory, type DependencyContainer } from 'tsyringe';
import type { Config } from './config.js';
import { CountingMarkingRepository, CountingRatingRepository, CountingUserDataRepository } from './counting-repositories.js';
import { loggerOptions, type LogDestination } from './logger-options.js';
import { openPersistence, type Persistence, type PersistenceWarning, warnOnStderr } from './persistence.js';
import { createServiceMetrics, type ServiceMetrics } from './service-metrics.js';

/** Explicit tokens: no decorators, so the wiring works whatever compiler builds the code. */
export const tokens = {
  config: Symbol('Config'),
  clock: Symbol('Clock'),
  persistence: Symbol('Persistence'),
  verifyToken: Symbol('TokenVerifier'),
  markMeal: Symbol('MarkMeal'),
  rateMeal: Symbol('RateMeal'),
  upsertMeals: Symbol('UpsertMeals'),
  getMeal: Symbol('GetMeal'),
  getMeals: Symbol('GetMeals'),
  listMarkedMeals: Symbol('ListMarkedMeals'),
  listRatedMeals: Symbol('ListRatedMeals'),
  exportUserData: Symbol('ExportUserData'),
  eraseUserData: Symbol('EraseUserData'),
  metrics: Symbol('ServiceMetrics'),
} as const;

export interface Overrides {
  readonly clock?: Clock;
  readonly persistence?: Persistence;
  /** Log lines go here instead of stdout (tests read them). */
  readonly logDestination?: LogDestination;
}

/**
 * The only place that knows every package. A test can swap the clock; the database is opened beforehand (opening
 * PostgreSQL is asynchronous, a tsyringe factory is not).
 */
export function createContainer(
  config: Config,
  overrides: Overrides & { readonly persistence: Persistence },
): DependencyContainer {
  const c = rootContainer.createChildContainer();
  c.register(tokens.config, { useValue: config });
  c.register(tokens.clock, { useValue: overrides.clock ?? systemClock });
  c.register(tokens.persistence, { useValue: overrides.persistence });
  c.register(tokens.verifyToken, {
    useFactory: instanceCachingFactory<TokenVerifier>(() => createTokenVerifier(config)),
  });
  // Disabled metrics are null: nothing is counted, and /metrics does not exist.
  c.register(tokens.metrics, {
    useFactory: instanceCachingFactory<ServiceMetrics | null>(() => (config.metricsEnabled ? createServiceMetrics() : null)),
  });
  const counted = (d: DependencyContainer) => {
    const { meals, markings, ratings } = d.resolve<Persistence>(tokens.persistence);
    const metrics = d.resolve<ServiceMetrics | null>(tokens.metrics);
    if (metrics === null) return { meals, markings, ratings };
    return { meals, markings: new CountingMarkingRepository(markings, metrics), ratings: new CountingRatingRepository(ratings, metrics) };
  };
  c.register(tokens.markMeal, {
    useFactory: instanceCachingFactory((d) => new MarkMeal(counted(d))),
  });
  c.register(tokens.rateMeal, {
    useFactory: instanceCachingFactory((d) => new RateMeal({ ratings: counted(d).ratings, clock: d.resolve(tokens.clock) })),
  });
  c.register(tokens.upsertMeals, {
    useFactory: instanceCachingFactory((d) => new UpsertMeals(d.resolve<Persistence>(tokens.persistence))),
  });
  registerReadUseCases(c, config);
  return c;
}

/** The read side and the user's own data: queries over the same persistence, the clock, the canteen's time zone. */
function registerReadUseCases(c: DependencyContainer, config: Config): void {
  const reading = (d: DependencyContainer) => ({
    queries: d.resolve<Persistence>(tokens.persistence).queries,
    clock: d.resolve<Clock>(tokens.clock),
  });
  const userData = (d: DependencyContainer) => {
    const repository = d.resolve<Persistence>(tokens.persistence).userData;
    const metrics = d.resolve<ServiceMetrics | null>(tokens.metrics);
    return {
      userData: metrics === null ? repository : new CountingUserDataRepository(repository, metrics),
      clock: d.resolve<Clock>(tokens.clock),
    };
  };
  c.register(tokens.getMeal, { useFactory: instanceCachingFactory((d) => new GetMeal(reading(d))) });
  c.register(tokens.getMeals, {
    useFactory: instanceCachingFactory((d) => new GetMeals({ ...reading(d), timeZone: config.timeZone })),
  });
  c.register(tokens.listMarkedMeals, { useFactory: instanceCachingFactory((d) => new ListMarkedMeals(reading(d))) });
  c.register(tokens.listRatedMeals, { useFactory: instanceCachingFactory((d) => new ListRatedMeals(reading(d))) });
  c.register(tokens.exportUserData, { useFactory: instanceCachingFactory((d) => new ExportUserData(userData(d))) });
  c.register(tokens.eraseUserData, { useFactory: instanceCachingFactory((d) => new EraseUserData(userData(d))) });
}

export async function buildServer(config: Config, overrides: Overrides = {}) {
  // The database may warn before the app (and its logger) exists: such warnings go to stderr until then.
  let warn: PersistenceWarning = warnOnStderr;
  const persistence = overrides.persistence ?? (await openPersistence(config, (details, message) => warn(details, message)));
  const c = createContainer(config, { ...overrides, persistence });
  const metrics = c.resolve<ServiceMetrics | null>(tokens.metrics);
  const logger = loggerOptions(config, overrides.logDestination);
  const metricsOnOwnPort = metrics !== null && config.metricsPort !== undefined;
  const app: FastifyInstance = await buildHttpApp({
    useCases: {
      markMeal: c.resolve(tokens.markMeal),
      rateMeal: c.resolve(tokens.rateMeal),
      upsertMeals: c.resolve(tokens.upsertMeals),
      getMeal: c.resolve(tokens.getMeal),
      getMeals: c.resolve(tokens.getMeals),
      listMarkedMeals: c.resolve(tokens.listMarkedMeals),
      listRatedMeals: c.resolve(tokens.listRatedMeals),
      exportUserData: c.resolve(tokens.exportUserData),
      eraseUserData: c.resolve(tokens.eraseUserData),
    },
    verifyToken: c.resolve(tokens.verifyToken),
    logger,
    docs: config.docsEnabled,
    operations: {
      readiness: () => persistence.ping(),
      ...(metrics === null ? {} : { observeRequest: metrics.observeRequest }),
      ...(metrics === null || metricsOnOwnPort ? {} : { metrics: metrics.endpoint }),
      ...(config.metricsToken === undefined ? {} : { metricsToken: config.metricsToken }),
    },
    rateLimits: config.rateLimits,
    trustProxy: config.trustProxy,
    corsOrigins: config.corsOrigins,
    cursorSecret: config.cursorSecret,
    timeouts: config.httpTimeouts,
  });
  warn = (details, message) => app.log.warn(details, message);
  // Served on METRICS_PORT by main.ts; closed with the app.
  const metricsApp = metricsOnOwnPort ? await buildMetricsApp({
        metrics: metrics.endpoint,
        ...(config.metricsToken === undefined ? {} : { metricsToken: config.metricsToken }),
        logger,
      }) : undefined;
  // The database closes after Fastify has let every in-flight request finish.
  app.addHook('onClose', async () => {
    await metricsApp?.close();
    await persistence.close();
  });
  return { app, metricsApp, persistence, container: c };
}

/** The verifier for the one configured key source. */
function createTokenVerifier(config: Config): TokenVerifier {
  const claims = {
    issuer: config.jwtIssuer,
    audience: config.jwtAudience,
    clockToleranceMs: config.jwtClockToleranceMs,
    maxLifetimeMs: config.jwtMaxLifetimeMs,
  };
  switch (config.jwtKey.kind) {
    case 'secret':
      return createHmacTokenVerifier({ ...claims, secret: config.jwtSecret });
    case 'public-key':
      return createPublicKeyTokenVerifier({ ...claims, publicKeyPem: config.jwtKey.pem });
    case 'jwks':
      return createJwksTokenVerifier({
        ...claims,
        issuer: config.jwtKey.issuer,
        jwksUrl: config.jwtKey.url,
        cooldownMs: config.jwtKey.cooldownMs,
      });
  }
}
