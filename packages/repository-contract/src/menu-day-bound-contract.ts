import {
  accept,
  mealSourceKey,
  noMealDetails,
  planMenuImport,
  refuse,
  type MenuCandidate,
  type MenuDaysCheck,
  type MenuImportDecision,
} from '@canteen-meals/domain';
import type { ServingWindow } from '@canteen-meals/domain/ports';
import { describe, expect, it } from 'vitest';
import { accepted } from './accepted.js';
import { probeThrough } from './repository-probe.js';
import { freshFixturePerTest, type CreateRepositoryFixture } from './repository-fixture.js';
import { readAt, sampleMeal } from './sample-meals.js';

const monday: ServingWindow = {
  canteenId: 'default',
  from: new Date('2025-03-10T00:00:00Z'),
  until: new Date('2025-03-11T00:00:00Z'),
};
const tuesday: ServingWindow = { ...monday, from: monday.until, until: new Date('2025-03-12T00:00:00Z') };
const onMonday = new Date('2025-03-10T11:30:00Z');
const nord = {
  id: 'nord',
  name: 'Mensa Nord',
  timeZone: 'UTC',
  city: null,
  address: null,
  coordinates: null,
  feeds: [],
};

/** A check that records what it was handed and accepts, unless a day would hold more than `bound` meals. */
function boundedAt(
  bound: number,
  days: readonly ServingWindow[],
  adding: number,
  seen: (readonly number[])[] = [],
): MenuDaysCheck {
  return {
    days,
    decide: (held) => {
      seen.push(held);
      return held.every((count) => count + adding <= bound) ? accept(held) : refuse('menu_day_full', 'the day is full');
    },
  };
}

/** Monday's menu of a feed: the candidates of an import, served at the sample instant. */
function mondayMenu(...names: string[]): MenuCandidate[] {
  return names.map((name) => ({
    key: mealSourceKey('feed', '2025-03-10', { category: '', name }),
    servedOn: '2025-03-10',
    meal: { ...noMealDetails, name, servedAt: onMonday, rateable: true },
  }));
}

/** The import of `candidates`, refused when Monday would hold more than `bound` meals. */
function importBoundedAt(
  bound: number,
  candidates: readonly MenuCandidate[],
  seen: (readonly number[])[] = [],
): MenuImportDecision {
  return (snapshot) => {
    seen.push(snapshot.held);
    const plan = planMenuImport(candidates, snapshot, readAt);
    if (!plan.ok) return plan;
    const fits = (snapshot.held[0] ?? 0) + plan.value.added.length + plan.value.unchanged.length <= bound;
    return fits ? plan : refuse('menu_day_full', 'the day is full');
  };
}

/**
 * What every adapter must do for the bound of a canteen day (see MenuDaysCheck): count, inside the write's unit of
 * work, the meals each day holds that are not withdrawn and not written by the write, and never let two writes that
 * add to one day both count it before the other has written.
 */
export function describeMenuDayBoundContract(adapterName: string, createFixture: CreateRepositoryFixture): void {
  describe(`canteen day bound contract: ${adapterName}`, () => {
    const store = freshFixturePerTest(createFixture);
    const probe = probeThrough(() => store().queries);

    it("hands upsertMany's decide, for each day in order, the meals it holds that are neither withdrawn nor in the batch", async () => {
      const { meals, canteens } = store();
      await canteens.save(nord);
      await meals.upsertMany([
        sampleMeal(1, { servedAt: onMonday }),
        sampleMeal(2, { servedAt: onMonday }),
        sampleMeal(3, { servedAt: onMonday }),
        sampleMeal(4, { servedAt: monday.until }),
        sampleMeal(5, { servedAt: monday.from }),
        sampleMeal(6, { servedAt: onMonday, canteenId: 'nord' }),
        sampleMeal(7, { servedAt: new Date(monday.from.getTime() - 1) }),
      ]);
      await meals.withdraw(3, onMonday);
      const seen: (readonly number[])[] = [];

      // Meal 2 moves to Tuesday: Monday holds 1 and 5 besides the batch, Tuesday 4.
      const batch = [sampleMeal(2, { servedAt: tuesday.from }), sampleMeal(10, { servedAt: onMonday })];
      expect(await meals.upsertMany(batch, boundedAt(500, [monday, tuesday], 0, seen))).toEqual(accept(2));

      expect(seen).toEqual([[2, 1]]);
      expect((await probe.meal(2))?.servedAt).toEqual(tuesday.from);
      expect(await probe.meal(10)).toEqual(batch[1]);
    });

    it('writes nothing of a batch whose decide refuses, and answers the refusal', async () => {
      const { meals } = store();
      await meals.upsertMany([sampleMeal(1, { servedAt: onMonday })]);
      const refusing: MenuDaysCheck = { days: [monday], decide: () => refuse('menu_day_full', 'Monday is full') };

      const batch = [sampleMeal(1, { name: 'Renamed', servedAt: onMonday }), sampleMeal(2, { servedAt: onMonday })];
      expect(await meals.upsertMany(batch, refusing)).toEqual(refuse('menu_day_full', 'Monday is full'));

      expect(await probe.meal(1)).toEqual(sampleMeal(1, { servedAt: onMonday }));
      expect(await probe.meal(2)).toBeUndefined();
      expect(await meals.count()).toBe(1);
    });

    it('lets only one of several batches at once fill a day', async () => {
      const { meals } = store();
      const batches = [0, 1, 2, 3, 4].map((batch) =>
        [1, 2, 3].map((n) => sampleMeal(batch * 10 + n, { servedAt: onMonday })),
      );

      const results = await Promise.all(
        batches.map((batch) => meals.upsertMany(batch, boundedAt(4, [monday], batch.length))),
      );

      expect(results.filter((result) => result.ok)).toHaveLength(1);
      expect(await meals.count()).toBe(3);
    });

    it("hands importMenu's decide what its days hold besides the known meals, withdrawn ones left out", async () => {
      const { meals, mealSources } = store();
      const scope = { source: 'feed', days: ['2025-03-10'], servedIn: [monday, tuesday] };
      accepted(await mealSources.importMenu(scope, importBoundedAt(500, mondayMenu('Soup', 'Stew'))));
      await meals.upsertMany([
        sampleMeal(100, { servedAt: onMonday }),
        sampleMeal(101, { servedAt: onMonday }),
        sampleMeal(102, { servedAt: tuesday.from }),
      ]);
      await meals.withdraw(101, onMonday);
      const seen: (readonly number[])[] = [];

      const plan = accepted(
        await mealSources.importMenu(scope, importBoundedAt(500, mondayMenu('Soup', 'Stew', 'Salad'), seen)),
      );

      expect(seen).toEqual([[1, 1]]);
      expect(plan.added.map(({ meal }) => meal.name)).toEqual(['Salad']);
    });

    it('writes nothing of an import whose decide refuses for a full day', async () => {
      const { meals, mealSources } = store();
      await meals.upsertMany([sampleMeal(1, { servedAt: onMonday })]);
      const scope = { source: 'feed', days: ['2025-03-10'], servedIn: [monday] };

      const refused = await mealSources.importMenu(scope, importBoundedAt(2, mondayMenu('Soup', 'Stew')));

      expect(refused).toEqual(refuse('menu_day_full', 'the day is full'));
      expect(await meals.count()).toBe(1);
    });

    it('lets only one of an import and a batch at once fill a day', async () => {
      const { meals, mealSources } = store();
      const scope = { source: 'feed', days: ['2025-03-10'], servedIn: [monday] };
      // Ids no import hands out first (it numbers its meals from 1 here), so that the batch cannot update them.
      const batch = [101, 102, 103].map((id) => sampleMeal(id, { servedAt: onMonday }));

      const [imported, upserted] = await Promise.all([
        mealSources.importMenu(scope, importBoundedAt(4, mondayMenu('Soup', 'Stew', 'Salad'))),
        meals.upsertMany(batch, boundedAt(4, [monday], batch.length)),
      ]);

      expect([imported.ok, upserted.ok].filter(Boolean)).toHaveLength(1);
      expect(await meals.count()).toBe(3);
    });
  });
}
