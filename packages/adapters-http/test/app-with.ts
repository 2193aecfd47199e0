import { createInMemoryAdapters, FixedClock } from '@meals/adapters-memory';
import { MarkMeal, RateMeal, UpsertMeals } from '@meals/domain';
import type { InjectOptions } from 'fastify';
import { buildHttpApp, type HttpAppOptions } from '../src/index.js';
import { menu, now } from './app-fixture.js';

/** The real HTTP app over in-memory adapters, with whatever verifier, limits and logger a test needs. */
export async function buildAppWith(options: Omit<HttpAppOptions, 'useCases'> & Partial<Pick<HttpAppOptions, 'useCases'>>) {
  const adapters = createInMemoryAdapters();
  await adapters.meals.upsertMany(menu);
  const clock = new FixedClock(now);
  const app = await buildHttpApp({
    useCases: {
      markMeal: new MarkMeal(adapters),
      rateMeal: new RateMeal({ ratings: adapters.ratings, clock }),
      upsertMeals: new UpsertMeals(adapters),
    },
    ...options,
  });
  return { app, adapters };
}

/** A mark-meal request with this Authorization header (or none). */
export function markMealRequest(authorization: string | null, extra: InjectOptions = {}): InjectOptions {
  return {
    method: 'POST',
    url: '/api/v1/mark-meal',
    ...extra,
    headers: {
      'content-type': 'application/json',
      ...(authorization === null ? {} : { authorization }),
      ...extra.headers,
    },
    payload: JSON.stringify({ meal_id: 1, marked: true }),
  };
}
