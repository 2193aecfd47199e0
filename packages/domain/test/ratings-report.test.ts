import { describe, expect, it } from 'vitest';
import { InMemoryCanteenRepository, InMemoryDatabase } from '@canteen-meals/adapters-memory';
import { accepted } from '@canteen-meals/repository-contract';
import {
  emptyHistogram,
  GetPublicMenu,
  GetRatingsReport,
  maxMenuDays,
  maxReportDays,
  refuse,
  withMealDetails,
  type Clock,
  type MealQueries,
  type PersonalMeal,
  type ServingWindow,
} from '../src/index.js';

const now = new Date('2026-03-10T12:00:00Z');
const clock: Clock = { now: () => now };

const view = (id: number, servedAt: string, histogram = emptyHistogram): PersonalMeal => {
  const meal = withMealDetails({ id, name: `Meal ${id}`, servedAt: new Date(servedAt), rateable: true });
  return {
    meal,
    histogram,
    marked: false,
    personalRating: null,
    dish: { id: 100 + id, canteenId: meal.canteenId, name: `Dish ${id}`, histogram, timesServed: 1, lastServedAt: null, nextServedAt: null },
  };
};

/** Answers the views in the windows, in the order given (menu order), and records each call. */
function fakeQueries(views: PersonalMeal[]) {
  const calls: { reader: string | null; windows: readonly ServingWindow[]; asOf: Date }[] = [];
  const queries = {
    viewsServedIn: async (reader, windows, asOf) => {
      calls.push({ reader, windows, asOf });
      return views.filter((v) => windows.some(({ from, until }) => v.meal.servedAt >= from && v.meal.servedAt < until));
    },
  } as Pick<MealQueries, 'viewsServedIn'> as MealQueries;
  return { queries, calls };
}

const canteens = () => new InMemoryCanteenRepository(new InMemoryDatabase({ defaultTimeZone: 'America/New_York' }));

describe('GetRatingsReport', () => {
  it("reads the canteen's days in one anonymous query and gives each meal its day on the canteen's clocks", async () => {
    // New York: UTC-5 until 2026-03-08 02:00, UTC-4 after.
    const views = [
      view(1, '2026-03-01T04:59:59Z'), // 2026-02-28 23:59:59 local: before the range
      view(2, '2026-03-01T05:00:00Z', [0, 0, 1, 1, 1]), // 2026-03-01 00:00 local
      view(3, '2026-03-08T04:30:00Z'), // 2026-03-07 23:30 local
      view(4, '2026-03-09T03:59:00Z'), // 2026-03-08 23:59 local (EDT)
      view(5, '2026-03-09T04:00:00Z'), // 2026-03-09 00:00 local: after the range
    ];
    const { queries, calls } = fakeQueries(views);
    const report = accepted(
      await new GetRatingsReport({ queries, clock, canteens: canteens() }).execute({ canteenId: 'default', from: '2026-03-01', to: '2026-03-08' }),
    );

    expect(calls).toEqual([
      { reader: null, windows: [{ canteenId: 'default', from: new Date('2026-03-01T05:00:00Z'), until: new Date('2026-03-09T04:00:00Z') }], asOf: now },
    ]);
    expect(report.size).toBe(3);
    expect(report.asOf).toEqual(now);
    const rows = [...report.rows];
    expect(rows.map((row) => [row.meal.id, row.date])).toEqual([
      [2, '2026-03-01'],
      [3, '2026-03-07'],
      [4, '2026-03-08'],
    ]);
    expect(rows[0]).toMatchObject({ dish: { id: 102, name: 'Dish 2' }, statistics: { count: 3, average: 4, median: 4 }, distribution: [0, 0, 1, 1, 1] });
    // The rows can be iterated again: each iteration makes them afresh from the meals read.
    expect([...report.rows]).toEqual(rows);
  });

  it(`covers up to ${maxReportDays} days; the menu read still stops at ${maxMenuDays}`, async () => {
    const { queries, calls } = fakeQueries([]);
    const deps = { queries, clock, canteens: canteens() };
    const report = new GetRatingsReport(deps);
    expect(accepted(await report.execute({ canteenId: 'default', from: '2024-01-01', to: '2024-12-31' })).size).toBe(0);
    expect(await report.execute({ canteenId: 'default', from: '2024-01-01', to: '2025-01-01' })).toEqual(
      refuse('invalid_menu_range', 'the range covers at most 366 days, `from` and `to` included'),
    );
    expect(await report.execute({ canteenId: 'default', from: '2026-03-02', to: '2026-03-01' })).toEqual(
      refuse('invalid_menu_range', '`to` must not be before `from`'),
    );
    expect(await report.execute({ canteenId: 'nowhere', from: '2026-03-01', to: '2026-03-01' })).toEqual(refuse('canteen_not_found'));
    const menu = new GetPublicMenu(deps);
    expect(accepted(await menu.execute({ canteenId: 'default', from: '2026-03-01', to: '2026-03-14' })).meals).toEqual([]);
    expect(await menu.execute({ canteenId: 'default', from: '2026-03-01', to: '2026-03-15' })).toEqual(
      refuse('invalid_menu_range', 'the range covers at most 14 days, `from` and `to` included'),
    );
    expect(calls).toHaveLength(2);
  });
});
