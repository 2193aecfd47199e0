import { signHmacToken } from '@canteen-meals/adapters-http';
import { createSqliteAdapters, openSqliteDatabase } from '@canteen-meals/adapters-sqlite';
import { buildServer, loadConfig } from '@canteen-meals/server';

export interface RoundTrips {
  /** Menu size -> SQL statements that one GET /api/v1/meals?date= of that day ran. */
  readonly byMenuSize: ReadonlyMap<number, number>;
}

/**
 * Database round trips of the batch read, through the real wiring (composition root, HTTP app, SQLite adapters) in
 * this process: better-sqlite3 reports every statement it executes, and days of 1, 10 and 50 meals are read.
 * Counting here keeps the server's code free of anything that exists only for the benchmark.
 */
export async function batchReadRoundTrips(sizes: readonly number[] = [1, 10, 50]): Promise<RoundTrips> {
  const secret = 'round-trip-counting-secret-of-32-bytes!!';
  let executed = 0;
  const db = openSqliteDatabase(':memory:', { onStatement: () => executed++ });
  const persistence = { ...createSqliteAdapters(db), ping: async () => {}, close: async () => void db.close() };
  const config = loadConfig({
    NODE_ENV: 'production',
    JWT_SECRET: secret,
    DATABASE_URL: 'memory:',
    LOG_LEVEL: 'silent',
    TZ_NAME: 'Europe/Berlin',
    RATE_LIMIT_USER_PER_MIN: '0',
    RATE_LIMIT_IP_PER_MIN: '0',
  });
  const { app } = await buildServer(config, { persistence });
  const authorization = `Bearer ${signHmacToken(secret, { sub: 'reader' })}`;
  const byMenuSize = new Map<number, number>();
  try {
    for (const [index, size] of sizes.entries()) {
      // Day `index` of March 2026, its meals from noon UTC on (the same day in Berlin), each marked and rated.
      const day = `2026-03-${String(index + 10).padStart(2, '0')}`;
      const meals = Array.from({ length: size }, (_, i) => ({
        id: (index + 1) * 1000 + i,
        name: `Dish ${i + 1}`,
        servedAt: new Date(Date.parse(`${day}T12:00:00Z`) + i * 60_000),
        rateable: true,
      }));
      await persistence.meals.upsertMany(meals);
      for (const meal of meals) await persistence.markings.setMarked('reader', meal.id, true);
      executed = 0;
      const response = await app.inject({
        method: 'GET',
        url: `/api/v1/meals?date=${day}`,
        headers: { authorization },
      });
      const statements = executed;
      const answered =
        response.statusCode === 200 ? (response.json() as { data: { meals: unknown[] } }).data.meals.length : -1;
      if (answered !== size)
        throw new Error(`GET /api/v1/meals?date=${day}: ${response.statusCode}, ${answered} meals instead of ${size}`);
      byMenuSize.set(size, statements);
    }
  } finally {
    await app.close();
  }
  return { byMenuSize };
}
