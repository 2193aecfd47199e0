import { createInMemoryAdapters, FixedClock, InMemoryDatabase } from '@canteen-meals/adapters-memory';
import { createUseCases, defaultCanteenId, type Canteen, type MenuChange } from '@canteen-meals/domain';
import type { FeedSource, NextRun } from '@canteen-meals/domain/ports';
import { accepted, MealMother } from '@canteen-meals/repository-contract';
import { describe, expect, it } from 'vitest';

// Archiving a canteen over the in-memory store: what leaves the reads, what stays, and the save that restores it.
const now = new Date('2026-08-03T12:00:00Z');
const today = '2026-08-03';
const mensa: Canteen = {
  id: 'mensa',
  name: 'Mensa',
  timeZone: 'UTC',
  city: null,
  address: null,
  coordinates: null,
  feeds: [{ name: 'full', url: 'https://mensa.example/full.xml', schedule: '0 6 * * *' }],
};
/** Every feed is due at any check: the schedule fired a minute ago. */
const alwaysDue: NextRun = (_schedule, _zone, after) => new Date(after.getTime() - 60_000);

async function setup() {
  const clock = new FixedClock(now);
  const fetched: string[] = [];
  const feedSource: FeedSource = {
    fetch: async (url) => {
      fetched.push(url);
      return { status: 'not_modified', httpStatus: 304 };
    },
  };
  const adapters = createInMemoryAdapters(new InMemoryDatabase({ defaultTimeZone: 'UTC' }));
  const useCases = createUseCases(
    adapters,
    clock,
    { start: '11:00', timeZone: 'UTC' },
    { feedSource, nextRun: alwaysDue },
  );
  accepted(await useCases.saveCanteen.execute(mensa));
  accepted(
    await useCases.upsertMeals.execute([
      MealMother.servedToday(now, { id: 1, name: 'Soup', canteenId: 'mensa' }),
      MealMother.servedToday(now, { id: 2, name: 'Stew' }),
    ]),
  );
  accepted(await useCases.rateMeal.execute({ userId: 'alice', mealId: 1, rating: 4 }));
  accepted(await useCases.markMeal.execute({ userId: 'alice', mealId: 1, marked: true }));
  const changes: MenuChange[] = [];
  useCases.menuChanges.subscribe((change) => void changes.push(change));
  return { useCases, clock, fetched, changes };
}

const dayOf = (canteenId: string) => ({ canteenId, from: today, to: today });

describe('ArchiveCanteen', () => {
  it('answers when the canteen was archived, keeps that instant when archived again, and tells the menus changed', async () => {
    const { useCases, clock, changes } = await setup();
    expect(await useCases.archiveCanteen.execute('mensa')).toEqual({
      ok: true,
      value: { canteenId: 'mensa', archivedAt: now },
    });
    clock.set(new Date(now.getTime() + 3_600_000));
    expect(await useCases.archiveCanteen.execute('mensa')).toEqual({
      ok: true,
      value: { canteenId: 'mensa', archivedAt: now },
    });
    expect(changes).toEqual([{ kind: 'menus' }, { kind: 'menus' }]);
  });

  it('refuses an unknown canteen and changes nothing', async () => {
    const { useCases, changes } = await setup();
    expect(await useCases.archiveCanteen.execute('nowhere')).toMatchObject({
      ok: false,
      refusal: { code: 'canteen_not_found' },
    });
    expect(changes).toEqual([]);
    expect((await useCases.listCanteens.execute()).map((canteen) => canteen.id)).toEqual([defaultCanteenId, 'mensa']);
  });

  it('leaves the canteen out of every list and read, and takes no more meals into it', async () => {
    const { useCases } = await setup();
    // Alice marked the soup: today's serving and tomorrow's are her coming favourites while the canteen is active.
    accepted(
      await useCases.upsertMeals.execute([MealMother.servedTomorrow(now, { id: 3, name: 'Soup', canteenId: 'mensa' })]),
    );
    const upcoming = async () =>
      (await useCases.getUpcomingFavourites.execute({ userId: 'alice' })).servings.map(
        (serving) => serving.reading.meal.id,
      );
    expect(await upcoming()).toEqual([1, 3]);
    accepted(await useCases.archiveCanteen.execute('mensa'));
    const notFound = { ok: false, refusal: { code: 'canteen_not_found' } };

    expect((await useCases.listCanteens.execute()).map((canteen) => canteen.id)).toEqual([defaultCanteenId]);
    expect(await useCases.getCanteen.execute('mensa')).toMatchObject(notFound);
    expect(await useCases.getPublicMenu.execute(dayOf('mensa'))).toMatchObject(notFound);
    expect(await useCases.getMeals.execute({ userId: 'alice', canteenId: 'mensa', servedOn: today })).toMatchObject(
      notFound,
    );
    expect(await useCases.rankMeals.execute(dayOf('mensa'))).toMatchObject(notFound);
    expect(await useCases.rankDishes.execute({ canteenId: 'mensa' })).toMatchObject(notFound);
    expect(
      await useCases.searchDishes.execute({ canteenId: 'mensa', text: 'soup', after: null, limit: 10 }),
    ).toMatchObject(notFound);
    expect(await useCases.getRatingsReport.execute(dayOf('mensa'))).toMatchObject(notFound);
    expect(await useCases.listFeeds.execute({ canteenId: 'mensa' })).toMatchObject(notFound);
    expect(await useCases.runFeed.execute({ canteenId: 'mensa', feedName: 'full' })).toMatchObject(notFound);
    // Every canteen's day and the coming favourites are those of the active canteens only.
    const everyCanteen = accepted(await useCases.getMeals.execute({ userId: 'alice', servedOn: today }));
    expect(everyCanteen.meals.map((reading) => reading.meal.id)).toEqual([2]);
    expect(await upcoming()).toEqual([]);
    expect(
      await useCases.upsertMeals.execute([MealMother.servedTomorrow(now, { id: 4, canteenId: 'mensa' })]),
    ).toMatchObject(notFound);
  });

  it('keeps its meals, ratings and markings: a meal read by id still has them', async () => {
    const { useCases } = await setup();
    accepted(await useCases.archiveCanteen.execute('mensa'));
    const soup = accepted(await useCases.getMeal.execute({ userId: 'alice', mealId: 1 }));
    expect([soup.meal.canteenId, soup.statistics.count, soup.personalRating, soup.marked]).toEqual([
      'mensa',
      1,
      4,
      true,
    ]);
  });

  it('no longer fetches its feeds on schedule; a save restores it, its feeds, menus and ratings', async () => {
    const { useCases, fetched } = await setup();
    await useCases.runDueFeeds.execute();
    expect(fetched).toEqual([mensa.feeds[0]!.url]);
    accepted(await useCases.archiveCanteen.execute('mensa'));
    await useCases.runDueFeeds.execute();
    expect(fetched).toHaveLength(1);

    expect(accepted(await useCases.saveCanteen.execute(mensa)).created).toBe(false);
    // Restored with the same feed URL: the feed keeps its state (its last outcome), as any PUT that keeps a URL does.
    expect(
      accepted(await useCases.listFeeds.execute({ canteenId: 'mensa' })).map(({ state }) => state.outcome),
    ).toEqual(['not_modified']);
    expect((await useCases.listCanteens.execute()).map((canteen) => canteen.id)).toEqual([defaultCanteenId, 'mensa']);
    const menu = accepted(await useCases.getPublicMenu.execute(dayOf('mensa')));
    expect(menu.meals.map((reading) => [reading.meal.id, reading.statistics.count])).toEqual([[1, 1]]);
    await useCases.runDueFeeds.execute();
    expect(fetched).toHaveLength(2);
  });

  it('archives the default canteen like any other: meals without a canteen are refused until a save restores it', async () => {
    const { useCases } = await setup();
    accepted(await useCases.archiveCanteen.execute(defaultCanteenId));
    expect((await useCases.listCanteens.execute()).map((canteen) => canteen.id)).toEqual(['mensa']);
    expect(await useCases.upsertMeals.execute([MealMother.servedTomorrow(now, { id: 5 })])).toMatchObject({
      ok: false,
      refusal: { code: 'canteen_not_found' },
    });
    const everyCanteen = accepted(await useCases.getMeals.execute({ userId: 'alice', servedOn: today }));
    expect(everyCanteen.meals.map((reading) => reading.meal.id)).toEqual([1]);

    const listed = await useCases.listCanteensWithArchived.execute();
    const fallback = listed.find((canteen) => canteen.id === defaultCanteenId)!;
    expect(fallback.archivedAt).toEqual(now);
    const { archivedAt: _archivedAt, ...restored } = fallback;
    accepted(await useCases.saveCanteen.execute(restored));
    accepted(await useCases.upsertMeals.execute([MealMother.servedTomorrow(now, { id: 5 })]));
  });
});

describe('ListCanteensWithArchived', () => {
  it('lists every canteen by id, archived ones with their archivedAt and the others with null', async () => {
    const { useCases } = await setup();
    accepted(await useCases.archiveCanteen.execute('mensa'));
    const listed = await useCases.listCanteensWithArchived.execute();
    expect(listed.map((canteen) => [canteen.id, canteen.archivedAt])).toEqual([
      [defaultCanteenId, null],
      ['mensa', now],
    ]);
    expect(listed[1]).toEqual({
      ...mensa,
      openmensaId: expect.any(Number),
      noteLabels: {},
      placeholderNames: [],
      archivedAt: now,
    });
  });
});
