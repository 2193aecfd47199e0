import { signHmacToken } from '@canteen-meals/adapters-http';
import { createMealsClient, MealsApiError, type MealsClient } from '@canteen-meals/client';
import { MealMother } from '@canteen-meals/repository-contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from './start-server.js';

const secret = 'labels-client-secret-of-at-least-32-bytes';
const day = '2030-02-12';
const served = new Date(`${day}T11:30:00Z`);

let server: RunningServer;
let alice: MealsClient;

beforeAll(async () => {
  server = await startServer({ JWT_SECRET: secret, TZ_NAME: 'UTC' });
  const admin = createMealsClient({
    baseUrl: server.baseUrl,
    token: signHmacToken(secret, { sub: 'admin', scope: 'meals:write' }),
  });
  alice = createMealsClient({ baseUrl: server.baseUrl, token: signHmacToken(secret, { sub: 'alice' }) });
  await admin.upsertMeals(
    MealMother.upsertBody(
      MealMother.servedAt(served, { id: 1, name: 'Bread', labels: ['wheat'] }),
      MealMother.servedAt(served, { id: 2, name: 'Curry', notes: ['Senf'], labels: ['vegan'] }),
      MealMother.servedAt(served, { id: 3, name: 'Kein Angebot' }),
    ),
  );
});

afterAll(async () => {
  await server?.stop();
});

describe('labels, preferences and aversions through the client', () => {
  it('reads the legend and filters a menu, placeholders only when asked for', async () => {
    const { labels } = await alice.listLabels();
    expect(labels.find((label) => label.code === 'wheat')?.parent).toBe('gluten');
    const ids = async (selection: object) =>
      (await alice.getMeals({ canteen: 'default', date: day, all: true, ...selection })).meals.map(
        (meal) => meal.meal_id,
      );
    expect(await ids({})).toEqual([1, 2]);
    expect(await ids({ without: ['gluten'] })).toEqual([2]);
    expect(await ids({ only: ['vegetarian'], placeholders: true })).toEqual([2]);
    expect(await ids({ placeholders: true })).toEqual([1, 2, 3]);
    const curry = (await alice.getMeals({ ids: [2] })).meals[0]!;
    expect(curry.labels).toEqual(['mustard', 'vegan', 'vegetarian']);
    expect(curry.notes).toEqual(['Senf']);
  });

  it('saves preferences that personalized reads apply, and avoids a dish', async () => {
    expect(await alice.savePreferences({ without: ['mustard'], only: [] })).toEqual({ without: ['mustard'], only: [] });
    expect(await alice.getPreferences()).toEqual({ without: ['mustard'], only: [] });
    expect((await alice.getMeals({ canteen: 'default', date: day })).meals.map((meal) => meal.meal_id)).toEqual([1]);
    const bread = (await alice.getMeals({ ids: [1] })).meals[0]!.dish_id;
    expect(await alice.avoidDish(bread)).toEqual({ dish_id: bread, avoided: true });
    expect((await alice.listAversions()).aversions.map((aversion) => aversion.dish_id)).toEqual([bread]);
    expect((await alice.getMeals({ canteen: 'default', date: day })).meals[0]?.avoided).toBe(true);
    expect((await alice.getMeals({ canteen: 'default', date: day, hide: 'avoided' })).meals).toEqual([]);
    expect(await alice.stopAvoidingDish(bread)).toEqual({ dish_id: bread, avoided: false });
    const refused = await alice.savePreferences({ without: ['mustrd'], only: [] }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(MealsApiError);
    expect((refused as MealsApiError).message).toContain('"mustrd"');
  });
});
