import { createInMemoryAdapters, FixedClock, InMemoryDatabase } from '@canteen-meals/adapters-memory';
import type { InjectOptions } from 'fastify';
import { webhooksPlugin } from '@canteen-meals/adapters-http-webhooks';
import { buildHttpApp, type HttpAppOptions, httpUseCasesOf, type AllHttpUseCases } from '../src/index.js';
import { menu, now, timeZone, useCasesOver } from './app-fixture.js';

/** The real HTTP app over in-memory adapters, with whatever verifier, limits, logger and use cases a test needs. */
export async function buildAppWith(
  options: Omit<HttpAppOptions, 'useCases'> & { readonly useCases?: Partial<AllHttpUseCases> },
) {
  const adapters = createInMemoryAdapters(new InMemoryDatabase({ defaultTimeZone: timeZone }));
  await adapters.meals.upsertMany(menu);
  const clock = new FixedClock(now);
  const useCases = useCasesOver(adapters, clock);
  const app = await buildHttpApp({
    ...options,
    useCases: httpUseCasesOf({ ...useCases, ...options.useCases }),
    plugins: [webhooksPlugin({ useCases }), ...(options.plugins ?? [])],
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
