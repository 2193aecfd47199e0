import { createInMemoryAdapters, FixedClock } from '@meals/adapters-memory';
import { MarkMeal, RateMeal, UpsertMeals, type Meal } from '@meals/domain';
import { buildHttpApp, createHmacTokenVerifier, signHmacToken, type TokenClaims } from '../src/index.js';

export const secret = 'route-test-secret-of-at-least-32-bytes!!';
export const now = new Date('2026-03-10T12:00:00Z');
const hour = 3_600_000;

export const menu: Meal[] = [
  { id: 1, name: 'Open meal', servedAt: new Date(now.getTime() - hour), rateable: true },
  { id: 2, name: 'Salad bar', servedAt: new Date(now.getTime() - hour), rateable: false },
  { id: 3, name: 'Tomorrow', servedAt: new Date(now.getTime() + 24 * hour), rateable: true },
  { id: 4, name: 'Last month', servedAt: new Date(now.getTime() - 30 * 24 * hour), rateable: true },
];

/** The real HTTP app over in-memory adapters and a fixed clock, with real signed tokens. */
export async function buildTestApp(options: { issuer?: string; audience?: string } = {}) {
  const adapters = createInMemoryAdapters();
  await adapters.meals.upsertMany(menu);
  const clock = new FixedClock(now);
  const app = await buildHttpApp({
    useCases: {
      markMeal: new MarkMeal(adapters),
      rateMeal: new RateMeal({ ratings: adapters.ratings, clock }),
      upsertMeals: new UpsertMeals(adapters),
    },
    verifyToken: createHmacTokenVerifier({ secret, issuer: options.issuer, audience: options.audience }),
  });
  const token = (claims: Partial<TokenClaims> = {}) => signHmacToken(secret, { sub: 'alice', ...options, ...claims });
  return { app, adapters, clock, token };
}
