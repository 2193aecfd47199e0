import { createInMemoryAdapters, FixedClock, InMemoryDatabase } from '@canteen-meals/adapters-memory';
import { accepted } from '@canteen-meals/repository-contract';
import { describe, expect, it } from 'vitest';
import { createUseCases, maxRankingDays, rankingScore, refuse, type Meal } from '../src/index.js';

const now = new Date('2026-03-10T12:00:00.000Z');
const day = 24 * 60 * 60 * 1000;
const daysAgo = (days: number) => new Date(now.getTime() - days * day - 60 * 60 * 1000);

async function setup(meals: Meal[]) {
  const adapters = createInMemoryAdapters(new InMemoryDatabase({ defaultTimeZone: 'Europe/Berlin' }));
  const clock = new FixedClock(now);
  const useCases = createUseCases(adapters, clock, { start: '11:00', timeZone: 'Europe/Berlin' });
  accepted(await useCases.upsertMeals.execute(meals));
  /** Rates as many users as `ratings` has values, inside the meal's rating period. */
  const rate = async (meal: Meal, ...ratings: (1 | 2 | 3 | 4 | 5)[]) => {
    clock.set(new Date(meal.servedAt.getTime() + 60_000));
    for (const [index, rating] of ratings.entries()) {
      accepted(await useCases.rateMeal.execute({ userId: `user-${meal.id}-${index}`, mealId: meal.id, rating }));
    }
    clock.set(now);
  };
  return { adapters, useCases, rate };
}

const meal = (id: number, name: string, servedAt: Date): Meal => ({ id, name, servedAt, rateable: true });

describe('RankMeals', () => {
  it('ranks the public menu of the days: by score, the unrated meals last in menu order', async () => {
    const meals = [
      meal(1, 'Unrated', daysAgo(1)),
      meal(2, 'One five', daysAgo(1)),
      meal(3, 'Good', daysAgo(2)),
      meal(4, 'Also unrated', daysAgo(0)),
    ];
    const { useCases, rate } = await setup(meals);
    await rate(meals[1]!, 5);
    await rate(meals[2]!, 5, 5, 4, 4, 5, 5, 4, 5);

    const ranking = accepted(
      await useCases.rankMeals.execute({ canteenId: 'default', from: '2026-03-01', to: '2026-03-10' }),
    );

    expect(ranking.items.map((item) => [item.rank, item.item.meal.id])).toEqual([
      [1, 3],
      [2, 2],
      [3, 1],
      [4, 4],
    ]);
    expect(ranking.items[1]).toMatchObject({
      score: rankingScore([0, 0, 0, 0, 1]),
      statistics: { count: 1, average: 5 },
    });
    expect(ranking.asOf).toEqual(now);
  });

  it(`covers up to ${maxRankingDays} days, more than a menu read; refuses more, an inverted range and an unknown canteen`, async () => {
    const { useCases } = await setup([meal(1, 'Soup', daysAgo(30))]);
    const rank = (from: string, to: string, canteenId = 'default') =>
      useCases.rankMeals.execute({ canteenId, from, to });
    expect(accepted(await rank('2026-02-08', '2026-03-10')).items).toHaveLength(1);
    expect(await rank('2026-02-07', '2026-03-10')).toEqual(
      refuse('invalid_menu_range', `a ranking covers at most ${maxRankingDays} days`),
    );
    expect(await rank('2026-03-10', '2026-03-09')).toMatchObject({
      ok: false,
      refusal: { code: 'invalid_menu_range' },
    });
    expect(await rank('2026-03-01', '2026-03-10', 'nowhere')).toEqual(refuse('canteen_not_found'));
    // The public menu itself still stops at 14 days.
    expect(
      await useCases.getPublicMenu.execute({ canteenId: 'default', from: '2026-02-08', to: '2026-03-10' }),
    ).toMatchObject({
      ok: false,
      refusal: { code: 'invalid_menu_range', message: 'a menu read covers at most 14 days' },
    });
  });

  it('ranks by marks, most marked first, ties in menu order', async () => {
    const meals = [meal(1, 'A', daysAgo(1)), meal(2, 'B', daysAgo(1)), meal(3, 'C', daysAgo(1))];
    const { useCases } = await setup(meals);
    for (const [userId, mealId] of [
      ['alice', 3],
      ['bob', 3],
      ['alice', 2],
    ] as const) {
      await useCases.markMeal.execute({ userId, mealId, marked: true });
    }
    const ranking = accepted(
      await useCases.rankMeals.execute({ canteenId: 'default', from: '2026-03-09', to: '2026-03-09', by: 'marks' }),
    );
    expect(ranking.items.map((item) => [item.item.meal.id, item.marks])).toEqual([
      [3, 2],
      [2, 1],
      [1, 0],
    ]);
  });
});

describe('RankDishes', () => {
  it("ranks a canteen's dishes over all their servings, and refuses an unknown canteen", async () => {
    const meals = [
      meal(1, 'Soup', daysAgo(8)),
      meal(2, 'Soup', daysAgo(1)),
      meal(3, 'Curry', daysAgo(1)),
      meal(4, 'Salad', daysAgo(1)),
    ];
    const { useCases, rate, adapters } = await setup(meals);
    await rate(meals[0]!, 5, 5, 4);
    await rate(meals[1]!, 5, 4, 5);
    await rate(meals[2]!, 5, 5);
    await useCases.markMeal.execute({ userId: 'alice', mealId: 1, marked: true });
    await useCases.markMeal.execute({ userId: 'alice', mealId: 2, marked: true });

    const ranking = accepted(await useCases.rankDishes.execute({ canteenId: 'default' }));
    expect(ranking.items.map((item) => [item.rank, item.item.name, item.statistics.count])).toEqual([
      [1, 'Soup', 6],
      [2, 'Curry', 2],
      [3, 'Salad', 0],
    ]);
    // By marks, alice counts once for the soup, though she marked two of its servings.
    const byMarks = accepted(await useCases.rankDishes.execute({ canteenId: 'default', by: 'marks' }));
    expect(byMarks.items.map((item) => [item.item.name, item.marks])).toEqual([
      ['Soup', 1],
      ['Curry', 0],
      ['Salad', 0],
    ]);
    expect(await useCases.rankDishes.execute({ canteenId: 'nowhere' })).toEqual(refuse('canteen_not_found'));
    expect(await useCases.rankDishes.execute({ canteenId: 'Not A Slug' })).toEqual(refuse('canteen_not_found'));
    expect(await adapters.dishQueries.markingCounts([])).toEqual(new Map());
  });
});
