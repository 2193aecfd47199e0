import 'reflect-metadata';
import { buildHttpApp, createHmacTokenVerifier, type TokenVerifier } from '@meals/adapters-http';
import { MarkMeal, RateMeal, systemClock, UpsertMeals, type Clock } from '@meals/domain';
import type { FastifyInstance } from 'fastify';
import { container as rootContainer, instanceCachingFactory, type DependencyContainer } from 'tsyringe';
import type { Config } from './config.js';
import { openPersistence, type Persistence, type PersistenceWarning, warnOnStderr } from './persistence.js';

/** Explicit tokens: no decorators, so the wiring works whatever compiler builds the code. */
export const tokens = {
  config: Symbol('Config'),
  clock: Symbol('Clock'),
  persistence: Symbol('Persistence'),
  verifyToken: Symbol('TokenVerifier'),
  markMeal: Symbol('MarkMeal'),
  rateMeal: Symbol('RateMeal'),
  upsertMeals: Symbol('UpsertMeals'),
} as const;

export interface Overrides {
  readonly clock?: Clock;
  readonly persistence?: Persistence;
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
    useFactory: instanceCachingFactory<TokenVerifier>(() =>
      createHmacTokenVerifier({
        secret: config.jwtSecret,
        issuer: config.jwtIssuer,
        audience: config.jwtAudience,
        clockToleranceMs: config.jwtClockToleranceMs,
      }),
    ),
  });
  c.register(tokens.markMeal, {
    useFactory: instanceCachingFactory((d) => new MarkMeal(d.resolve<Persistence>(tokens.persistence))),
  });
  c.register(tokens.rateMeal, {
    useFactory: instanceCachingFactory(
      (d) => new RateMeal({ ratings: d.resolve<Persistence>(tokens.persistence).ratings, clock: d.resolve(tokens.clock) }),
    ),
  });
  c.register(tokens.upsertMeals, {
    useFactory: instanceCachingFactory((d) => new UpsertMeals(d.resolve<Persistence>(tokens.persistence))),
  });
  return c;
}

export async function buildServer(config: Config, overrides: Overrides = {}) {
  // The database may warn before the app (and its logger) exists: such warnings go to stderr until then.
  let warn: PersistenceWarning = warnOnStderr;
  const persistence = overrides.persistence ?? (await openPersistence(config, (details, message) => warn(details, message)));
  const c = createContainer(config, { ...overrides, persistence });
  const app: FastifyInstance = await buildHttpApp({
    useCases: {
      markMeal: c.resolve(tokens.markMeal),
      rateMeal: c.resolve(tokens.rateMeal),
      upsertMeals: c.resolve(tokens.upsertMeals),
    },
    verifyToken: c.resolve(tokens.verifyToken),
    logger: config.logLevel === 'silent' ? false : { level: config.logLevel, redact: ['req.headers.authorization'] },
  });
  warn = (details, message) => app.log.warn(details, message);
  // The database closes after Fastify has let every in-flight request finish.
  app.addHook('onClose', () => persistence.close());
  return { app, persistence, container: c };
}
