import { createInMemoryAdapters, FixedClock } from '@meals/adapters-memory';
import { MarkMeal, RateMeal, UpsertMeals } from '@meals/domain';
import { buildHttpApp, createHmacTokenVerifier, signHmacToken, type HttpAppOptions } from '@meals/adapters-http';

export const testSecret = 'a-test-secret-of-at-least-32-bytes!!';

/** The HTTP app over the in-memory adapters, with a clock that stands still. */
export async function buildTestApp(options: Partial<Pick<HttpAppOptions, 'docs'>> = {}) {
  const adapters = createInMemoryAdapters();
  const clock = new FixedClock('2025-03-14T12:00:00Z');
  const app = await buildHttpApp({
    useCases: {
      markMeal: new MarkMeal(adapters),
      rateMeal: new RateMeal({ ratings: adapters.ratings, clock }),
      upsertMeals: new UpsertMeals(adapters),
    },
    verifyToken: createHmacTokenVerifier({ secret: testSecret }),
    ...options,
  });
  return { app, adapters, clock };
}

export function bearer(sub = 'user-1', scope?: string): Record<string, string> {
  return { authorization: `Bearer ${signHmacToken(testSecret, { sub, scope })}` };
}
