import { describe, expect, it } from 'vitest';
import { InMemoryCanteenRepository, InMemoryDatabase } from '@canteen-meals/adapters-memory';
import { accepted } from '@canteen-meals/repository-contract';
import {
  emptyHistogram,
  initialAvailability,
  GetPublicMenu,
  GetRatingsReport,
  maxMenuDays,
  maxReportDays,
  refuse,
  reportPageSize,
  withMealDetails,
  type PersonalMeal,
} from '../src/index.js';
import type { Clock, MealQueries, MenuPageRequest, ServingWindow } from '../src/ports.js';

const now = new Date('2026-03-10T12:00:00Z');
const clock: Clock = { now: () => now };

const view = (id: number, servedAt: string, histogram = emptyHistogram): PersonalMeal => {
  const meal = withMealDetails({ id, name: `Meal ${id}`, servedAt: new Date(servedAt), rateable: true });
  return {
    meal,
    histogram,
    marked: false,
    personalRating: null,
    dish: {
      id: 100 + id,
      canteenId: meal.canteenId,
      name: `Dish ${id}`,
      histogram,
      timesServed: 1,
      lastServedAt: null,
      nextServedAt: null,
    },
    availability: initialAvailability,
  };
};

/**
 * Answers the views in the windows, in the order given (menu order, by id here), a page at a time, and records each
 * call.
 */
function fakeQueries(views: PersonalMeal[]) {
  const calls: {
    reader: string | null;
    windows: readonly ServingWindow[];
    asOf: Date;
    page?: MenuPageRequest | undefined;
  }[] = [];
  const queries = {
    viewsServedIn: async (reader, windows, asOf, page) => {
      calls.push({ reader, windows, asOf, page });
      const inWindows = views.filter((v) =>
        windows.some(({ from, until }) => v.meal.servedAt >= from && v.meal.servedAt < until),
      );
      const after = page?.after?.mealId ?? 0;
      return inWindows.filter((v) => v.meal.id > after).slice(0, page?.limit ?? Infinity);
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
      await new GetRatingsReport({ queries, clock, canteens: canteens() }).execute({
        canteenId: 'default',
        from: '2026-03-01',
        to: '2026-03-08',
      }),
    );

    expect(calls).toEqual([
      {
        reader: null,
        windows: [
          { canteenId: 'default', from: new Date('2026-03-01T05:00:00Z'), until: new Date('2026-03-09T04:00:00Z') },
        ],
        asOf: now,
        page: { after: null, limit: reportPageSize },
      },
    ]);
    expect(report.asOf).toEqual(now);
    const rows = await collect(report.rows);
    expect(rows.map((row) => [row.meal.id, row.date])).toEqual([
      [2, '2026-03-01'],
      [3, '2026-03-07'],
      [4, '2026-03-08'],
    ]);
    expect(rows[0]).toMatchObject({
      dish: { id: 102, name: 'Dish 2' },
      statistics: { count: 3, average: 4, median: 4 },
      distribution: [0, 0, 1, 1, 1],
    });
    // A short first page is the last: nothing more was read.
    expect(calls).toHaveLength(1);
  });

  it('reads a long report a page at a time, after the last meal of the page before, and loses no meal', async () => {
    const views = Array.from({ length: 2 * reportPageSize + 1 }, (_, index) => view(index + 1, '2026-03-02T12:00:00Z'));
    const { queries, calls } = fakeQueries(views);
    const report = accepted(
      await new GetRatingsReport({ queries, clock, canteens: canteens() }).execute({
        canteenId: 'default',
        from: '2026-03-01',
        to: '2026-03-08',
      }),
    );
    expect(calls).toHaveLength(1);
    const ids = (await collect(report.rows)).map((row) => row.meal.id);
    expect(ids).toEqual(views.map((v) => v.meal.id));
    expect(calls.map((call) => call.page?.after?.mealId ?? null)).toEqual([null, reportPageSize, 2 * reportPageSize]);
  });

  it(`covers up to ${maxReportDays} days; the menu read still stops at ${maxMenuDays}`, async () => {
    const { queries, calls } = fakeQueries([]);
    const deps = { queries, clock, canteens: canteens() };
    const report = new GetRatingsReport(deps);
    expect(
      await collect(
        accepted(await report.execute({ canteenId: 'default', from: '2024-01-01', to: '2024-12-31' })).rows,
      ),
    ).toEqual([]);
    expect(await report.execute({ canteenId: 'default', from: '2024-01-01', to: '2025-01-01' })).toEqual(
      refuse('invalid_menu_range', 'a report covers at most 366 days'),
    );
    expect(await report.execute({ canteenId: 'default', from: '2026-03-02', to: '2026-03-01' })).toEqual(
      refuse('invalid_menu_range', '`to` must not be before `from`'),
    );
    expect(await report.execute({ canteenId: 'nowhere', from: '2026-03-01', to: '2026-03-01' })).toEqual(
      refuse('canteen_not_found'),
    );
    const menu = new GetPublicMenu(deps);
    expect(accepted(await menu.execute({ canteenId: 'default', from: '2026-03-01', to: '2026-03-14' })).meals).toEqual(
      [],
    );
    expect(await menu.execute({ canteenId: 'default', from: '2026-03-01', to: '2026-03-15' })).toEqual(
      refuse('invalid_menu_range', 'a menu read covers at most 14 days'),
    );
    expect(calls).toHaveLength(2);
  });
});

/** Array.fromAsync, which Node 20 lacks. */
async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const collected: T[] = [];
  for await (const item of items) collected.push(item);
  return collected;
}
