import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { createInMemoryAdapters, FixedClock, InMemoryDatabase } from '@canteen-meals/adapters-memory';
import { createPushUseCases, createUseCases, type Meal } from '@canteen-meals/domain';
import type { Clock } from '@canteen-meals/domain/ports';
import { MealMother } from '@canteen-meals/repository-contract';
import { pushPlugin } from '@canteen-meals/adapters-http-push';
import { webhooksPlugin } from '@canteen-meals/adapters-http-webhooks';
import {
  buildHttpApp,
  createHmacTokenVerifier,
  signHmacToken,
  type PushOptions,
  type OperationsOptions,
  type TokenClaims,
  httpUseCasesOf,
} from '../src/index.js';

export const secret = 'route-test-secret-of-at-least-32-bytes!!';
export const now = new Date('2026-03-10T12:00:00Z');
export const timeZone = 'Europe/Berlin';

export const menu: Meal[] = [
  MealMother.servedToday(now, { id: 1, name: 'Open meal' }),
  MealMother.servedToday(now, { id: 2, name: 'Salad bar', rateable: false }),
  MealMother.servedTomorrow(now, { id: 3, name: 'Tomorrow' }),
  MealMother.servedDaysAgo(now, 30, { id: 4, name: 'Last month' }),
];

/** Every use case the app serves, over one set of in-memory adapters and a clock: built as the server builds them. */
export function useCasesOver(
  adapters: ReturnType<typeof createInMemoryAdapters>,
  clock: Clock,
): ReturnType<typeof createUseCases> {
  // Webhooks without a secret get one as the server makes them; nothing is sent from route tests.
  return createUseCases(
    adapters,
    clock,
    { start: '11:00', timeZone },
    {},
    { newSecret: () => `whsec_${randomBytes(32).toString('base64')}` },
  );
}

/** A VAPID public key for the route tests (nothing is sent from them: the sender answers as a push service would). */
export const testVapidPublicKey = Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 3)]).toString('base64url');

/** Web Push over the same adapters, its sender answering 201 (the end-to-end tests send to a real push service). */
export function pushOver(adapters: ReturnType<typeof createInMemoryAdapters>, clock: Clock): NonNullable<PushOptions> {
  const push = createPushUseCases({
    store: adapters.pushStore,
    canteens: adapters.canteens,
    preferences: adapters.preferences,
    sender: { send: async () => ({ status: 201 }) },
    clock,
    checkEndpoint: (url) => (url.startsWith('https://') ? undefined : 'must be an https: URL'),
    digestTime: '10:30',
  });
  return { publicKey: testVapidPublicKey, ...push };
}

/** The real HTTP app over in-memory adapters and a fixed clock, with real signed tokens. */
export async function buildTestApp(
  options: { issuer?: string; audience?: string; docs?: boolean; operations?: OperationsOptions } = {},
) {
  const adapters = createInMemoryAdapters(new InMemoryDatabase({ defaultTimeZone: timeZone }));
  await adapters.meals.upsertMany(menu);
  const clock = new FixedClock(now);
  const useCases = useCasesOver(adapters, clock);
  const app = await buildHttpApp({
    useCases: httpUseCasesOf(useCases),
    plugins: [pushPlugin({ push: pushOver(adapters, clock) }), webhooksPlugin({ useCases })],
    verifyToken: createHmacTokenVerifier({ secret, issuer: options.issuer, audience: options.audience }),
    ...(options.docs === undefined ? {} : { docs: options.docs }),
    ...(options.operations === undefined ? {} : { operations: options.operations }),
  });
  const { issuer, audience } = options;
  const token = (claims: Partial<TokenClaims> = {}) =>
    signHmacToken(secret, { sub: 'alice', issuer, audience, ...claims });
  return { app, adapters, clock, token };
}

export type TestApp = Awaited<ReturnType<typeof buildTestApp>>;

/**
 * One app for the whole test file (compiling its schemas is the costly part); each test starts from the menu alone,
 * at `now`. Registers the vitest hooks; the returned fixture is filled in before the first test runs.
 */
export function useSharedTestApp(): TestApp {
  const shared = {} as { -readonly [K in keyof TestApp]: TestApp[K] };
  beforeAll(async () => {
    Object.assign(shared, await buildTestApp());
  });
  beforeEach(async () => {
    const { db } = shared.adapters;
    for (const table of [
      db.meals,
      db.histograms,
      db.ratings,
      db.markings,
      db.dishes,
      db.dishNames,
      db.mealDishes,
      db.withdrawn,
      db.closedDays,
      db.availability,
    ]) {
      table.clear();
    }
    for (const id of db.canteens.keys()) if (id !== 'default') db.canteens.delete(id);
    db.canteenArchivedAt.clear();
    await shared.adapters.meals.upsertMany(menu);
    shared.clock.set(now);
  });
  afterAll(() => shared.app?.close());
  return shared;
}
