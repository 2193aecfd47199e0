import { MealMother } from '@canteen-meals/repository-contract';
import { TokenMother } from '../../../../../packages/adapters-jwt/test/token-fixtures.js';
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

export const userToken = (sub: string) => TokenMother.signedWith(secret).user(sub);

/** Meals served an hour ago: open for rating during the whole test. */
export async function seedOpenMeals(baseUrl: string, mealIds: readonly number[]): Promise<void> {
  const admin = TokenMother.signedWith(secret).admin('reliability-admin');
  const now = new Date();
  const body = MealMother.upsertBody(...mealIds.map((id) => MealMother.servedToday(now, { id })));
  const answer = await send(false, baseUrl, 'PUT', '/api/v1/admin/meals', admin, body);
  if (answer.status !== 200) throw new Error(`seeding meals failed: ${answer.status} ${JSON.stringify(answer.body)}`);
}
