import {
  accept,
  decideRatingChange,
  mealSourceKey,
  noMealDetails,
  planMenuImport,
  type MenuCandidate,
  type MenuImportDecision,
  type MenuImportSnapshot,
} from '@canteen-meals/domain';
import { describe, expect, it } from 'vitest';
import { accepted } from './accepted.js';
import { probeThrough } from './repository-probe.js';
import { freshFixturePerTest, type CreateRepositoryFixture } from './repository-fixture.js';
import { ratingOpenAt, sampleMeal, servedAt, readAt } from './sample-meals.js';

const source = 'Mensa Academica';
const monday = '2025-03-10';
const tuesday = '2025-03-11';

function candidate(date: string, name: string, details: Partial<MenuCandidate['meal']> = {}): MenuCandidate {
  const meal = { ...noMealDetails, name, servedAt, rateable: true, category: 'Tellergericht', ...details };
  return { key: mealSourceKey(source, date, { category: meal.category ?? '', name }), servedOn: date, meal };
}

/** The import use case's decision over a fixed list of candidates, recording the snapshots it was handed. */
function planFor(candidates: MenuCandidate[], seen: MenuImportSnapshot[] = []): MenuImportDecision {
  return (snapshot) => {
    seen.push(snapshot);
    return planMenuImport(candidates, snapshot, readAt);
  };
}

/** What every MealSourceRepository adapter must do, whatever stores the meals and their source keys. */
export function describeMealSourceRepositoryContract(
  adapterName: string,
  createFixture: CreateRepositoryFixture,
): void {
  describe(`MealSourceRepository contract: ${adapterName}`, () => {
    const store = freshFixturePerTest(createFixture);
    const probe = probeThrough(() => store().queries);
    const scope = { source, days: [monday, tuesday], servedIn: [] };

    it('adds new meals above every id in use, with their details, readable through the catalog', async () => {
      const { meals, mealSources } = store();
      await meals.upsertMany([sampleMeal(1), sampleMeal(5)]);
      const seen: MenuImportSnapshot[] = [];
      const menu = [
        candidate(monday, 'Currywurst', { notes: ['Schwein'], prices: { student: '2.60', other: '5.20' } }),
        candidate(tuesday, 'Linseneintopf', { category: 'Vegan' }),
      ];

      const plan = accepted(await mealSources.importMenu(scope, planFor(menu, seen)));

      expect(seen).toEqual([{ known: new Map(), nextMealId: 6, withdrawn: new Set(), held: [] }]);
      expect(plan.added.map(({ meal }) => meal.id)).toEqual([6, 7]);
      expect(await probe.meal(6)).toEqual({ ...menu[0]!.meal, id: 6 });
      expect(await probe.meal(7)).toEqual({ ...menu[1]!.meal, id: 7 });
      expect(await meals.count()).toBe(4);
    });

    it("hands decide the scope's known meals by key, and no other source's or day's", async () => {
      const { mealSources } = store();
      const mine = [candidate(monday, 'Currywurst'), candidate(tuesday, 'Linseneintopf')];
      await mealSources.importMenu(scope, planFor(mine));
      await mealSources.importMenu(
        { source: 'Bistro', days: [monday], servedIn: [] },
        planFor([{ ...candidate(monday, 'Toast'), key: 'bistro-toast' }]),
      );
      await mealSources.importMenu(
        { source, days: ['2025-03-12'], servedIn: [] },
        planFor([candidate('2025-03-12', 'Pizza')]),
      );
      const seen: MenuImportSnapshot[] = [];

      await mealSources.importMenu({ source, days: [monday], servedIn: [] }, planFor([], seen));

      expect(seen).toEqual([
        {
          known: new Map([[mine[0]!.key, { ...mine[0]!.meal, id: 1 }]]),
          nextMealId: 5,
          withdrawn: new Set(),
          held: [],
        },
      ]);
    });

    it('re-importing the same menu changes nothing; a changed meal keeps its id, ratings and markings', async () => {
      const { mealSources, ratings, markings } = store();
      const menu = [candidate(monday, 'Currywurst', { prices: { student: '2.60' } }), candidate(monday, 'Salat')];
      await mealSources.importMenu(scope, planFor(menu));
      await ratings.change('alice', 1, (snapshot) => decideRatingChange(snapshot, 4, ratingOpenAt));
      await markings.setMarked('bob', 1, true);

      const again = accepted(await mealSources.importMenu(scope, planFor(menu)));
      expect([again.added.length, again.updated.length, again.unchanged.length]).toEqual([0, 0, 2]);

      const repriced = [candidate(monday, 'Currywurst', { prices: { student: '2.80' } }), menu[1]!];
      const changed = accepted(await mealSources.importMenu(scope, planFor(repriced)));

      expect(changed.updated.map((meal) => meal.id)).toEqual([1]);
      expect(await probe.meal(1)).toEqual({ ...repriced[0]!.meal, id: 1 });
      expect(await probe.rating('alice', 1)).toBe(4);
      expect(await probe.histogram(1)).toEqual([0, 0, 0, 1, 0]);
      expect(await probe.marked('bob', 1)).toBe(true);
    });

    it('writes nothing when decide throws', async () => {
      const { meals, mealSources } = store();
      await expect(
        mealSources.importMenu(scope, () => {
          throw new Error('refused');
        }),
      ).rejects.toThrow('refused');
      expect(await meals.count()).toBe(0);
      const seen: MenuImportSnapshot[] = [];
      await mealSources.importMenu(scope, planFor([], seen));
      expect(seen[0]?.known.size).toBe(0);
    });

    it('refuses, and writes nothing, a plan that adds a meal under an id in use or a key already known', async () => {
      const { meals, mealSources } = store();
      await meals.upsertMany([sampleMeal(1)]);
      const menu = [candidate(monday, 'Currywurst'), candidate(monday, 'Salat')];
      await mealSources.importMenu(scope, planFor(menu.slice(0, 1)));

      const reusedId: MenuImportDecision = (snapshot) => {
        const plan = accepted(planMenuImport(menu.slice(1), { ...snapshot, known: new Map() }, readAt));
        return accept({ ...plan, added: [{ ...plan.added[0]!, meal: { ...plan.added[0]!.meal, id: 1 } }] });
      };
      const reusedKey: MenuImportDecision = (snapshot) =>
        planMenuImport(menu, { ...snapshot, known: new Map() }, readAt);

      await expect(mealSources.importMenu(scope, reusedId)).rejects.toThrow();
      await expect(mealSources.importMenu(scope, reusedKey)).rejects.toThrow();

      expect(await probe.meal(1)).toEqual(sampleMeal(1));
      expect(await meals.count()).toBe(2);
    });

    it('adds a meal once when the same menu is imported twice at the same time', async () => {
      const { meals, mealSources } = store();
      const menu = [candidate(monday, 'Currywurst'), candidate(tuesday, 'Linseneintopf')];

      const plans = await Promise.all([
        mealSources.importMenu(scope, planFor(menu)),
        mealSources.importMenu(scope, planFor(menu)),
      ]);

      expect(plans.map((plan) => accepted(plan).added.length).sort()).toEqual([0, 2]);
      expect(await meals.count()).toBe(2);
    });
  });
}
