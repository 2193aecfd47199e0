import { signHmacToken } from '@canteen-meals/adapters-http';
import { send } from './http-client.js';

export const secret = 'reliability-secret-that-is-at-least-32-bytes';

/** A production server on a SQLite file, rate limits off: the load here is the test's own, not an attack. */
export function serverEnv(databasePath: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    NODE_ENV: 'production',
    JWT_SECRET: secret,
    DATABASE_URL: `sqlite:${databasePath}`,
    DATABASE_CREATE: '1',
    RATE_LIMIT_USER_PER_MIN: '0',
    RATE_LIMIT_IP_PER_MIN: '0',
    LOG_LEVEL: 'warn',
    ...extra,
  };
}

export const userToken = (sub: string) => signHmacToken(secret, { sub, expiresInMs: 60 * 60 * 1000 });

/** Meals served an hour ago: open for rating during the whole test. */
export async function seedOpenMeals(baseUrl: string, mealIds: readonly number[]): Promise<void> {
  const servedAt = new Date(Date.now() - 60 * 60 * 1000).toISOString();
  const admin = signHmacToken(secret, { sub: 'reliability-admin', scope: 'meals:write' });
  const answer = await send(false, baseUrl, 'PUT', '/api/v1/admin/meals', admin, {
    meals: mealIds.map((id) => ({ meal_id: id, name: `Meal ${id}`, served_at: servedAt, rateable: true })),
  });
  if (answer.status !== 200) throw new Error(`seeding meals failed: ${answer.status} ${JSON.stringify(answer.body)}`);
}
