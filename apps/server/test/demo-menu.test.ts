import { createInMemoryAdapters, FixedClock, InMemoryDatabase } from '@canteen-meals/adapters-memory';
import { createUseCases, localDayOf } from '@canteen-meals/domain';
import { describe, expect, it } from 'vitest';
import { demoCanteen, demoMenu } from '../src/demo-menu.js';

// The Quick start's tour began with an empty menu between 00:00 and 02:00 in Berlin: today's demo meals
// were placed two hours back, on yesterday's date on the canteen's clock.
const timeZone = 'Europe/Berlin';

describe('the demo menu', () => {
  it.each([
    ['00:30 in Berlin', '2026-03-09T23:30:00Z', '2026-03-10'],
    ['01:59 in Berlin, summer time', '2026-07-09T23:59:00Z', '2026-07-10'],
    ['23:30 in Berlin', '2026-03-10T22:30:00Z', '2026-03-10'],
    ['12:00 in Berlin', '2026-03-10T11:00:00Z', '2026-03-10'],
  ])("puts today's meals on the canteen's today, already served, at %s", async (_when, instant, today) => {
    const now = new Date(instant);
    const meals = demoMenu(now, timeZone);
    for (const id of [1, 2, 5]) {
      const meal = meals.find((candidate) => candidate.id === id)!;
      expect(localDayOf(meal.servedAt, timeZone).date).toBe(today);
      expect(meal.servedAt.getTime()).toBeLessThanOrEqual(now.getTime());
    }

    const clock = new FixedClock(now);
    const useCases = createUseCases(
      createInMemoryAdapters(new InMemoryDatabase({ defaultTimeZone: timeZone })),
      clock,
      { start: '11:00', timeZone },
    );
    expect((await useCases.saveCanteen.execute(demoCanteen)).ok).toBe(true);
    expect((await useCases.upsertMeals.execute(meals)).ok).toBe(true);
    const menu = await useCases.getMeals.execute({ userId: 'alice', canteenId: 'default', from: today, to: today });
    expect(menu.ok && menu.value.meals.map((reading) => reading.meal.id).sort()).toEqual([1, 2, 5]);
    const rated = await useCases.rateMeal.execute({ userId: 'alice', mealId: 1, rating: 5 });
    expect(rated).toMatchObject({ ok: true, value: { count: 1 } });
  });
});
