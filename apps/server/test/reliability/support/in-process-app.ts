import { FixedClock } from '@canteen-meals/adapters-memory';
import { createSqliteAdapters, openSqliteDatabase } from '@canteen-meals/adapters-sqlite';
import type { Meal } from '@canteen-meals/domain';
import { buildServer } from '../../../src/composition-root.js';
import { loadConfig } from '../../../src/config.js';

/**
 * The real composition (configuration, container, Fastify, use cases, SQLite repositories) in this process, over a
 * private in-memory SQLite database and a fixed clock; the test keeps the database handle to read the tables.
 * `reset()` empties the tables and puts the menu back: the app keeps no state of its own, so a property test can
 * run each case against a clean database without paying for a new app.
 */
export async function buildInProcessApp(options: { secret: string; now: number; menu: readonly Meal[] }) {
  const config = loadConfig({
    NODE_ENV: 'production',
    JWT_SECRET: options.secret,
    DATABASE_URL: 'memory:',
    LOG_LEVEL: 'silent',
    RATE_LIMIT_USER_PER_MIN: '0',
    RATE_LIMIT_IP_PER_MIN: '0',
  });
  const db = openSqliteDatabase(':memory:');
  const persistence = { ...createSqliteAdapters(db), ping: async () => {}, close: async () => void db.close() };
  const { app } = await buildServer(config, { clock: new FixedClock(options.now), persistence });
  const reset = async () => {
    db.exec('DELETE FROM ratings; DELETE FROM markings; DELETE FROM meals;');
    await persistence.meals.upsertMany(options.menu);
  };
  await reset();
  await app.ready();
  return { app, db, persistence, reset };
}
