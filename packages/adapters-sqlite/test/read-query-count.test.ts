import { createSqliteAdapters, openSqliteDatabase } from '@canteen-meals/adapters-sqlite';
import { MealMother, rateInPeriod, readAt } from '@canteen-meals/repository-contract';
import type { Meal } from '@canteen-meals/domain';
import type { ServingWindow } from '@canteen-meals/domain/ports';
import { afterAll, describe, expect, it } from 'vitest';

const sizes = [1, 10, 100] as const;
const day = Date.parse('2026-03-10T00:00:00Z');
const minute = 60_000;

// better-sqlite3's `verbose` hook sees every statement executed (not prepared): a query counter.
const executed: string[] = [];
const db = openSqliteDatabase(':memory:', { onStatement: (sql) => executed.push(sql) });
const adapters = createSqliteAdapters(db);
afterAll(() => db.close());

/** Ten canteens; meal n + 1 is served by canteen n % 10, so a day's menu spans every canteen. */
const canteenIds = Array.from({ length: 10 }, (_, index) => `canteen-${index}`);
for (const id of canteenIds) {
  await adapters.canteens.save({
    id,
    name: id,
    timeZone: 'Europe/Berlin',
    city: null,
    address: null,
    coordinates: null,
    feeds: [],
  });
}

/**
 * 100 meals on one day, a minute apart, each marked and rated by alice and rated by bob, so every view joins real rows.
 */
const servedAt = (index: number) => new Date(day + 8 * 60 * minute + index * minute);
const menu: Meal[] = Array.from({ length: 100 }, (_, index) =>
  MealMother.servedAt(servedAt(index), { id: index + 1, canteenId: canteenIds[index % 10]! }),
);
await adapters.meals.upsertMany(menu);
for (const meal of menu) {
  await adapters.markings.setMarked('alice', meal.id, true);
  await rateInPeriod(adapters.ratings, 'alice', meal, 4);
  await rateInPeriod(adapters.ratings, 'bob', meal, 2);
}

/** A dish of the default canteen served 100 times, a day apart, each serving marked and rated by alice. */
const soups: Meal[] = Array.from({ length: 100 }, (_, index) =>
  MealMother.servedAt(new Date(day - (index + 1) * 24 * 60 * minute), { id: 1001 + index, name: 'Soup of the day' }),
);
await adapters.meals.upsertMany(soups);
for (const meal of soups) {
  await adapters.markings.setMarked('alice', meal.id, true);
  await rateInPeriod(adapters.ratings, 'alice', meal, 3);
}
const soupDish = (await adapters.queries.viewsByIds('alice', [soups[0]!.id], readAt))[0]!.dish;

async function statementsOf<T>(read: () => Promise<T>): Promise<{ count: number; result: T }> {
  executed.length = 0;
  const result = await read();
  return { count: executed.length, result };
}

describe('the read side runs a constant number of statements, whatever the number of meals', () => {
  it('reads 1, 10 and 100 meals by id in one statement each', async () => {
    for (const size of sizes) {
      const ids = menu.slice(0, size).map((meal) => meal.id);
      const { count, result } = await statementsOf(() => adapters.queries.viewsByIds('alice', ids, readAt));
      expect(result).toHaveLength(size);
      expect(result.every((view) => view.marked && view.personalRating === 4)).toBe(true);
      expect(count).toBe(1);
    }
  });

  it('reads the meals of a day of 1, 10 and 100 meals, over one window per canteen, in one statement each', async () => {
    for (const size of sizes) {
      const until = new Date(menu[size - 1]!.servedAt.getTime() + 1);
      const windows = canteenIds.map((canteenId) => ({ canteenId, from: new Date(day), until }));
      const { count, result } = await statementsOf(() => adapters.queries.viewsServedIn('alice', windows, readAt));
      expect(result.map((view) => view.meal.id)).toEqual(menu.slice(0, size).map((meal) => meal.id));
      expect(result.every((view) => view.marked && view.personalRating === 4)).toBe(true);
      expect(count).toBe(1);
    }
  });

  it('reads the meals of 1, 10 and 100 windows in one statement each', async () => {
    for (const size of sizes) {
      // Window n holds meal n + 1 alone: its canteen, the minute it is served.
      const windows: ServingWindow[] = menu.slice(0, size).map((meal, index) => ({
        canteenId: canteenIds[index % 10]!,
        from: meal.servedAt,
        until: new Date(meal.servedAt.getTime() + minute),
      }));
      const { count, result } = await statementsOf(() => adapters.queries.viewsServedIn('alice', windows, readAt));
      expect(result.map((view) => view.meal.id)).toEqual(menu.slice(0, size).map((meal) => meal.id));
      expect(count).toBe(1);
    }
  });

  it('reads a day by pages of 1, 10 and 100 meals, anonymously or not, in one statement each', async () => {
    const wholeDay = canteenIds.map((canteenId) => ({
      canteenId,
      from: new Date(day),
      until: new Date(day + 24 * 60 * minute),
    }));
    for (const size of sizes) {
      const first = await statementsOf(() =>
        adapters.queries.viewsServedIn(null, wholeDay, readAt, { after: null, limit: size }),
      );
      expect(first.result.map((view) => view.meal.id)).toEqual(menu.slice(0, size).map((meal) => meal.id));
      expect(first.result.some((view) => view.marked || view.personalRating !== null)).toBe(false);
      const { meal: last } = first.result[size - 1]!;
      const after = { servedAt: last.servedAt, position: last.position, mealId: last.id };
      const next = await statementsOf(() =>
        adapters.queries.viewsServedIn('alice', wholeDay, readAt, { after, limit: size }),
      );
      expect(next.result.map((view) => view.meal.id)).toEqual(menu.slice(size, 2 * size).map((meal) => meal.id));
      expect([first.count, next.count]).toEqual([1, 1]);
    }
  });

  it("reads the coming servings of 1, 10 and 100 favourite dishes in one statement each, from the user's markings", async () => {
    const wholeDay = canteenIds.map((canteenId) => ({
      canteenId,
      from: new Date(day),
      until: new Date(day + 24 * 60 * minute),
    }));
    for (const size of sizes) {
      const { count, result } = await statementsOf(() =>
        adapters.queries.favouriteServingsIn('alice', wholeDay, readAt, size),
      );
      expect(result.map((view) => view.meal.id)).toEqual(menu.slice(0, size).map((meal) => meal.id));
      expect(count).toBe(1);
    }
    // The markings by their key, then each favourite dish's servings by meals_by_dish_served: no menu is read whole.
    const plan = (db.prepare(`EXPLAIN QUERY PLAN ${executed[0]!}`).all() as { detail: string }[]).map(
      (step) => step.detail,
    );
    expect(plan).toContain('SEARCH markings USING PRIMARY KEY (user_id=?)');
    expect(
      plan.some((step) =>
        /^SEARCH upcoming USING INDEX meals_by_dish_served \(dish_id=\? AND served_at>\? AND served_at<\?\)$/.test(
          step,
        ),
      ),
    ).toBe(true);
    expect(plan.filter((step) => /^SCAN (meals|markings|upcoming|marked)\b/.test(step))).toEqual([]);
  });

  it("reads a user's own states of 1, 10 and 100 meals with their preferences in one statement each", async () => {
    await adapters.preferences.saveFilter('alice', { without: ['sesame'], only: [] });
    for (const size of sizes) {
      const ids = menu.slice(0, size).map((meal) => meal.id);
      const { count, result } = await statementsOf(() => adapters.queries.personalPartOf('alice', ids));
      expect(result.preferences.filter).toEqual({ without: ['sesame'], only: [] });
      expect(result.states).toEqual(
        menu.slice(0, size).map((meal) => ({ mealId: meal.id, marked: true, personalRating: 4 })),
      );
      expect(count).toBe(1);
    }
  });

  it('reads pages of 1, 10 and 100 marked and rated meals in one statement each', async () => {
    for (const size of sizes) {
      const marked = await statementsOf(() =>
        adapters.queries.markedMeals('alice', { after: null, limit: size }, readAt),
      );
      const rated = await statementsOf(() => adapters.queries.ratedMeals('bob', { after: null, limit: size }, readAt));
      expect([marked.result.length, rated.result.length]).toEqual([size, size]);
      expect([marked.count, rated.count]).toEqual([1, 1]);
    }
  });

  it('erases a user with 1, 10 and 100 ratings in the same seven statements: BEGIN, two UPDATEs (meals, dishes), three DELETEs (ratings, markings, webhook deliveries about the user), COMMIT', async () => {
    for (const size of sizes) {
      const user = `eraser-${size}`;
      for (const meal of menu.slice(0, size)) {
        await rateInPeriod(adapters.ratings, user, meal, 5);
        await adapters.markings.setMarked(user, meal.id, true);
      }
      const { count, result } = await statementsOf(() => adapters.userData.eraseAll(user));
      expect(result).toMatchObject({ markings: size, ratings: size });
      expect(result.meals.map((meal) => meal.mealId)).toEqual(
        menu
          .slice(0, size)
          .map((meal) => meal.id)
          .sort((a, b) => a - b),
      );
      expect(executed[0]).toBe('BEGIN IMMEDIATE');
      expect(count).toBe(7);
    }
  });

  it('reads a dish of 100 servings, and pages of 1, 10 and 100 of its servings, in one statement each', async () => {
    const dish = await statementsOf(() => adapters.dishQueries.dish(soupDish.id, 'alice', new Date(day)));
    expect(dish.result?.dish).toMatchObject({ timesServed: 100, histogram: [0, 0, 100, 0, 0] });
    expect(dish.result?.personal).toEqual({ marked: true, histogram: [0, 0, 100, 0, 0] });
    expect(dish.count).toBe(1);
    for (const size of sizes) {
      const { count, result } = await statementsOf(() =>
        adapters.dishQueries.servings(soupDish.id, 'alice', { after: null, limit: size }, readAt),
      );
      expect(result.map((view) => view.meal.id)).toEqual(soups.slice(0, size).map((meal) => meal.id));
      expect(count).toBe(1);
    }
  });

  it('searches 1, 10 and 100 dishes in one statement each', async () => {
    for (const size of sizes) {
      const { count, result } = await statementsOf(() =>
        adapters.dishQueries.search(canteenIds[0]!, 'meal', { after: null, limit: size }, readAt),
      );
      expect(result).toHaveLength(Math.min(size, 10));
      expect(count).toBe(1);
    }
  });
});
