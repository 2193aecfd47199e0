import {
  accept,
  mealSourceKey,
  noMealDetails,
  planMenuImport,
  refuse,
  type MenuCandidate,
  type MenuImportDecision,
} from '@canteen-meals/domain';
import { describe, expect, it } from 'vitest';
import { accepted } from './accepted.js';
import { MealMother } from './meal-mother.js';
import { freshFixturePerTest } from './repository-fixture.js';
import {
  dishIdOf,
  hoursAfter,
  observedEvents,
  withoutIds,
  type CreateWebhookRepositoryFixture,
} from './webhook-fixture.js';

const writeAt = new Date('2026-03-09T10:00:00.000Z');
/** Monday 2026-03-09, 11:30 UTC; Tuesday likewise. */
const monday = hoursAfter(writeAt, 1.5);
const tuesday = hoursAfter(monday, 24);
const berlin = {
  id: 'berlin',
  name: 'Mensa Berlin',
  timeZone: 'Europe/Berlin',
  city: null,
  address: null,
  coordinates: null,
  feeds: [],
};
const source = 'mensa-feed';

function candidate(date: string, name: string, servedAt: Date): MenuCandidate {
  const meal = { ...noMealDetails, name, servedAt, rateable: true };
  return { key: mealSourceKey(source, date, { category: '', name }), servedOn: date, meal };
}

/** The import use case's decision over fixed candidates, at the import's instant `at`. */
const planOf =
  (candidates: MenuCandidate[], at: Date): MenuImportDecision =>
  (snapshot) =>
    planMenuImport(candidates, snapshot, at);
const scopeOf = (days: string[], cause?: 'import' | 'feed') => ({
  source,
  days,
  servedIn: [],
  ...(cause === undefined ? {} : { cause }),
});

/**
 * What every adapter records in the webhook outbox, in the transaction of the menu write that causes it (see
 * MealCatalog.upsertMany and .withdraw, MealSourceRepository.importMenu): what the events say, and nothing for a write
 * that is refused.
 */
export function describeWebhookRecordingContract(
  adapterName: string,
  createFixture: CreateWebhookRepositoryFixture,
): void {
  describe(`webhook recording contract: ${adapterName}`, () => {
    const store = freshFixturePerTest(createFixture);

    it('an upsert records one menu.published per canteen day, its new meals added and the others changed, at its instant', async () => {
      const fixture = store();
      await fixture.canteens.save(berlin);
      await fixture.meals.upsertMany([MealMother.servedAt(monday, { id: 1 })], undefined, writeAt);
      await observedEvents(fixture, writeAt);
      const later = hoursAfter(writeAt, 0.5);
      // 23:30 UTC is Wednesday on Berlin's clocks.
      const berlinLate = new Date('2026-03-10T23:30:00.000Z');

      const written = await fixture.meals.upsertMany(
        [
          MealMother.servedAt(monday, { id: 2 }),
          MealMother.servedAt(monday, { id: 1, name: 'Meal 1 renamed' }),
          MealMother.servedAt(tuesday, { id: 3 }),
          MealMother.servedAt(berlinLate, { id: 4, canteenId: 'berlin' }),
        ],
        undefined,
        later,
      );

      expect(written).toEqual(accept(4));
      const events = withoutIds(
        (await observedEvents(fixture, later)).filter((event) => event.occurredAt.getTime() === later.getTime()),
      );
      const published = (canteenId: string, date: string, added: number[], changed: number[]) => ({
        type: 'menu.published',
        occurredAt: later,
        data: { canteenId, date, cause: 'upsert', added, changed, withdrawn: [] },
      });
      expect(events).toEqual([
        published('berlin', '2026-03-11', [4], []),
        published('default', '2026-03-09', [2], [1]),
        published('default', '2026-03-10', [3], []),
      ]);
    });

    it('an upsert that writes a meal with the data it had still records it as changed', async () => {
      const fixture = store();
      const meal = MealMother.servedAt(monday, { id: 1 });
      await fixture.meals.upsertMany([meal], undefined, writeAt);
      await fixture.meals.upsertMany([meal], undefined, hoursAfter(writeAt, 1));
      const events = await observedEvents(fixture, hoursAfter(writeAt, 1));
      expect(events.map((event) => event.data)).toEqual([
        { canteenId: 'default', date: '2026-03-09', cause: 'upsert', added: [1], changed: [], withdrawn: [] },
        { canteenId: 'default', date: '2026-03-09', cause: 'upsert', added: [], changed: [1], withdrawn: [] },
      ]);
    });

    it('a refused upsert records nothing, and neither does a batch that fails midway', async () => {
      const fixture = store();
      const check = { days: [], decide: () => refuse('menu_day_full', 'the day is full') };
      const refused = await fixture.meals.upsertMany([MealMother.servedAt(monday, { id: 1 })], check, writeAt);
      expect(refused.ok).toBe(false);
      await expect(
        fixture.meals.upsertMany([MealMother.servedAt(monday, { id: 2, canteenId: 'nowhere' })], undefined, writeAt),
      ).rejects.toThrow();
      expect(await observedEvents(fixture, writeAt)).toEqual([]);
      expect(await fixture.outbox.nextDueAt()).toBeNull();
    });

    it('an import records one menu.published per changed day with its cause, and a meal.withdrawn per withdrawn meal', async () => {
      const fixture = store();
      const first = [
        candidate('2026-03-09', 'Currywurst', monday),
        candidate('2026-03-09', 'Salat', monday),
        candidate('2026-03-10', 'Eintopf', tuesday),
      ];
      accepted(await fixture.mealSources.importMenu(scopeOf(['2026-03-09', '2026-03-10']), planOf(first, writeAt)));
      const eintopf = await dishIdOf(fixture, 'default', 'Eintopf', writeAt);
      const firstEvents = await observedEvents(fixture, writeAt);
      expect(withoutIds(firstEvents)).toEqual([
        {
          type: 'menu.published',
          occurredAt: writeAt,
          data: {
            canteenId: 'default',
            date: '2026-03-09',
            cause: 'import',
            added: [1, 2],
            changed: [],
            withdrawn: [],
          },
        },
        {
          type: 'menu.published',
          occurredAt: writeAt,
          data: { canteenId: 'default', date: '2026-03-10', cause: 'import', added: [3], changed: [], withdrawn: [] },
        },
      ]);

      // Monday: Currywurst unchanged, Salat renamed (a new meal; the old one was served by then, so it stays); Tuesday:
      // Eintopf gone.
      const fetchedAt = hoursAfter(writeAt, 2);
      const second = [candidate('2026-03-09', 'Currywurst', monday), candidate('2026-03-09', 'Salatteller', monday)];
      const plan = accepted(
        await fixture.mealSources.importMenu(scopeOf(['2026-03-09', '2026-03-10'], 'feed'), planOf(second, fetchedAt)),
      );

      expect(plan.withdrawn.map((meal) => meal.id)).toEqual([3]);
      const events = (await observedEvents(fixture, fetchedAt)).filter(
        (event) => event.occurredAt.getTime() === fetchedAt.getTime(),
      );
      expect(withoutIds(events)).toEqual([
        {
          type: 'menu.published',
          occurredAt: fetchedAt,
          data: { canteenId: 'default', date: '2026-03-09', cause: 'feed', added: [4], changed: [], withdrawn: [] },
        },
        {
          type: 'menu.published',
          occurredAt: fetchedAt,
          data: { canteenId: 'default', date: '2026-03-10', cause: 'feed', added: [], changed: [], withdrawn: [3] },
        },
        {
          type: 'meal.withdrawn',
          occurredAt: fetchedAt,
          data: { mealId: 3, canteenId: 'default', date: '2026-03-10', dishId: eintopf, withdrawnAt: fetchedAt },
        },
      ]);
    });

    it('an unchanged re-import records nothing; a changed meal is recorded as changed', async () => {
      const fixture = store();
      const menu = [candidate('2026-03-09', 'Currywurst', monday), candidate('2026-03-10', 'Eintopf', tuesday)];
      await fixture.mealSources.importMenu(scopeOf(['2026-03-09', '2026-03-10']), planOf(menu, writeAt));
      await observedEvents(fixture, writeAt);

      const again = hoursAfter(writeAt, 1);
      await fixture.mealSources.importMenu(scopeOf(['2026-03-09', '2026-03-10']), planOf(menu, again));
      expect(await observedEvents(fixture, again)).toHaveLength(2);

      const moved = [menu[0]!, candidate('2026-03-10', 'Eintopf', hoursAfter(tuesday, 1))];
      await fixture.mealSources.importMenu(scopeOf(['2026-03-09', '2026-03-10']), planOf(moved, hoursAfter(again, 1)));
      const latest = (await observedEvents(fixture, again)).filter((event) => event.occurredAt > again);
      expect(latest.map((event) => event.data)).toEqual([
        { canteenId: 'default', date: '2026-03-10', cause: 'import', added: [], changed: [2], withdrawn: [] },
      ]);
    });

    it('a refused import records nothing, and neither does one whose decide throws', async () => {
      const fixture = store();
      const menu = [candidate('2026-03-09', 'Currywurst', monday)];
      const full: MenuImportDecision = () => refuse('menu_day_full', 'the day is full');
      expect((await fixture.mealSources.importMenu(scopeOf(['2026-03-09']), full)).ok).toBe(false);
      const throwing: MenuImportDecision = (snapshot) => {
        planMenuImport(menu, snapshot, writeAt);
        throw new Error('a bug');
      };
      await expect(fixture.mealSources.importMenu(scopeOf(['2026-03-09']), throwing)).rejects.toThrow('a bug');
      expect(await observedEvents(fixture, writeAt)).toEqual([]);
    });

    it('a withdrawal records one meal.withdrawn the first time only', async () => {
      const fixture = store();
      await fixture.canteens.save(berlin);
      const late = new Date('2026-03-09T23:30:00.000Z');
      await fixture.meals.upsertMany(
        [MealMother.servedAt(late, { id: 1, name: 'Currywurst', canteenId: 'berlin' })],
        undefined,
        writeAt,
      );
      const dishId = await dishIdOf(fixture, 'berlin', 'Currywurst', writeAt);
      await observedEvents(fixture, writeAt);
      const at = hoursAfter(writeAt, 1);

      expect(await fixture.meals.withdraw(1, at)).toEqual({ found: true, withdrawnAt: at });
      expect(await fixture.meals.withdraw(1, hoursAfter(at, 1))).toEqual({ found: true, withdrawnAt: at });
      expect(await fixture.meals.withdraw(2, at)).toEqual({ found: false });

      const events = (await observedEvents(fixture, at)).filter((event) => event.type === 'meal.withdrawn');
      expect(withoutIds(events)).toEqual([
        {
          type: 'meal.withdrawn',
          occurredAt: at,
          data: { mealId: 1, canteenId: 'berlin', date: '2026-03-10', dishId, withdrawnAt: at },
        },
      ]);
    });
  });
}
