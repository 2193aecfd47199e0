import {
  decideDishMerge,
  decideRatingChange,
  emptyHistogram,
  planMenuImport,
  type Canteen,
  type DishId,
  type Meal,
  type MealId,
  type MenuCandidate,
  type RatingValue,
} from '@canteen-meals/domain';
import { describe, expect, it } from 'vitest';
import { accepted } from './accepted.js';
import type { CreateReadRepositoryFixture } from './read-repository-fixture.js';
import { freshFixturePerTest } from './repository-fixture.js';
import { readAt, sampleMeal, servedAt } from './sample-meals.js';

const day = 24 * 60 * 60 * 1000;
const bistro: Canteen = {
  id: 'bistro',
  name: 'Bistro',
  timeZone: 'Europe/Berlin',
  city: null,
  address: null,
  coordinates: null,
  feeds: [],
};

/** A meal served `days` after the sample instant (negative: before), named `name`. */
const serving = (id: MealId, name: string, days = 0, traits: Partial<Meal> = {}): Meal =>
  sampleMeal(id, { name, servedAt: new Date(servedAt.getTime() + days * day), ...traits });

/**
 * What every adapter must do for dishes: the servings of one canteen that share a name key are one dish, whose
 * histogram counts every rating of every serving (kept with each rating change, renames and merges); withdrawn meals
 * leave the reads but keep their ratings in their dish.
 */
export function describeDishContract(adapterName: string, createFixture: CreateReadRepositoryFixture): void {
  describe(`Dish contract: ${adapterName}`, () => {
    const store = freshFixturePerTest(createFixture);
    const view = async (mealId: MealId, reader = 'alice', asOf = readAt) =>
      (await store().queries.viewsByIds(reader, [mealId], asOf))[0];
    const dishOf = async (mealId: MealId) => (await view(mealId))!.dish;
    /** Rates at an instant inside the meal's rating period. */
    const rate = async (userId: string, meal: Meal, rating: RatingValue | null) =>
      accepted(
        await store().ratings.change(userId, meal.id, (snapshot) =>
          decideRatingChange(snapshot, rating, new Date(meal.servedAt.getTime() + 60_000)),
        ),
      );

    it('puts the servings of one canteen whose names differ only in case, width or spacing in one dish', async () => {
      const { meals, canteens } = store();
      await canteens.save(bistro);
      await meals.upsertMany([
        serving(1, 'Chili con Carne'),
        serving(2, '  chili   CON carne ', 7),
        serving(3, 'ＣＨＩＬＩ con carne', 14), // full-width letters: NFKC makes them ASCII
        serving(4, 'Chili sin Carne', 1),
        serving(5, 'Chili con Carne', 2, { canteenId: bistro.id }),
      ]);
      const [one, two, three, other, elsewhere] = await Promise.all([1, 2, 3, 4, 5].map(dishOf));
      expect(two!.id).toBe(one!.id);
      expect(three!.id).toBe(one!.id);
      expect(other!.id).not.toBe(one!.id);
      expect(elsewhere!.id).not.toBe(one!.id);
      expect(one).toMatchObject({ name: 'Chili con Carne', canteenId: 'default' });
      expect(elsewhere).toMatchObject({ name: 'Chili con Carne', canteenId: 'bistro' });
    });

    it("counts every serving's ratings in the dish, through sets, re-ratings and deletions", async () => {
      const { meals } = store();
      const first = serving(1, 'Soup');
      const second = serving(2, 'soup', 7);
      await meals.upsertMany([first, second, serving(3, 'Bread')]);
      await rate('alice', first, 5);
      await rate('bob', first, 3);
      const change = await rate('alice', second, 4);
      expect(change.dish).toEqual({ id: (await dishOf(1)).id, histogram: [0, 0, 1, 1, 1] });
      await rate('alice', second, 2);
      await rate('bob', first, null);
      expect((await dishOf(1)).histogram).toEqual([0, 1, 0, 0, 1]);
      expect((await dishOf(2)).histogram).toEqual([0, 1, 0, 0, 1]);
      expect((await view(1))!.histogram).toEqual([0, 0, 0, 0, 1]);
      expect((await dishOf(3)).histogram).toEqual(emptyHistogram);
    });

    it('answers how often the dish was served up to an instant, when last, and when next, leaving withdrawn servings out', async () => {
      const { meals } = store();
      await meals.upsertMany([
        serving(1, 'Pasta', -7),
        serving(2, 'Pasta'),
        serving(3, 'Pasta', 7),
        serving(4, 'Pasta', 14),
      ]);
      const asOf = new Date(servedAt.getTime() + day);
      expect((await view(2, 'alice', asOf))!.dish).toMatchObject({
        timesServed: 2,
        lastServedAt: servedAt,
        nextServedAt: new Date(servedAt.getTime() + 7 * day),
      });
      await meals.withdraw(3, asOf);
      expect((await view(2, 'alice', asOf))!.dish).toMatchObject({
        timesServed: 2,
        nextServedAt: new Date(servedAt.getTime() + 14 * day),
      });
      expect((await view(1, 'alice', new Date(servedAt.getTime() - 30 * day)))!.dish).toMatchObject({
        timesServed: 0,
        lastServedAt: null,
        nextServedAt: new Date(servedAt.getTime() - 7 * day),
      });
    });

    it("moves a renamed serving to its new name's dish with its ratings; the old dish keeps its other servings", async () => {
      const { meals } = store();
      const meal = serving(1, 'Curry');
      await meals.upsertMany([meal, serving(2, 'Curry', 7), serving(3, 'Dal', 14)]);
      await rate('alice', meal, 5);
      await meals.upsertMany([{ ...meal, name: 'Dal' }]);
      expect((await dishOf(1)).id).toBe((await dishOf(3)).id);
      expect((await dishOf(3)).histogram).toEqual([0, 0, 0, 0, 1]);
      expect((await dishOf(2)).histogram).toEqual(emptyHistogram);
    });

    describe('withdrawal', () => {
      it('takes the meal out of every read, keeps its ratings in its dish and its user data, and is idempotent', async () => {
        const { meals, markings, queries, userData } = store();
        const meal = serving(1, 'Fish');
        await meals.upsertMany([meal, serving(2, 'Fish', 7)]);
        await rate('alice', meal, 4);
        await markings.setMarked('alice', 1, true);
        const at = new Date(servedAt.getTime() + day);

        expect(await meals.withdraw(1, at)).toEqual({ found: true, withdrawnAt: at });
        expect(await meals.withdraw(1, new Date(at.getTime() + day))).toEqual({ found: true, withdrawnAt: at });
        expect(await meals.withdraw(99, at)).toEqual({ found: false });

        expect(await queries.viewsByIds('alice', [1], readAt)).toEqual([]);
        const week = [
          { canteenId: 'default', from: new Date(servedAt.getTime() - day), until: new Date(servedAt.getTime() + day) },
        ];
        expect(await queries.viewsServedIn('alice', week, readAt)).toEqual([]);
        expect(await queries.markedMeals('alice', { after: null, limit: 10 }, readAt)).toEqual([]);
        expect(await queries.ratedMeals('alice', { after: null, limit: 10 }, readAt)).toEqual([]);
        expect((await dishOf(2)).histogram).toEqual([0, 0, 0, 1, 0]);
        const data = await userData.exportAll('alice');
        expect(data.markings.map((marked) => marked.id)).toEqual([1]);
        expect(data.ratings.map(({ meal: rated, rating }) => [rated.id, rating])).toEqual([[1, 4]]);
      });

      it('refuses to mark or rate a withdrawn meal, writing nothing', async () => {
        const { meals, markings, ratings } = store();
        const meal = serving(1, 'Fish');
        await meals.upsertMany([meal]);
        await meals.withdraw(1, servedAt);
        expect(await markings.setMarked('alice', 1, true)).toBe(false);
        const refused = await ratings.change('alice', 1, (snapshot) => decideRatingChange(snapshot, 5, servedAt));
        expect(refused).toMatchObject({ ok: false, refusal: { code: 'meal_not_found' } });
      });

      it('serves a withdrawn meal again when an upsert writes it', async () => {
        const { meals } = store();
        await meals.upsertMany([serving(1, 'Fish')]);
        await meals.withdraw(1, servedAt);
        await meals.upsertMany([serving(1, 'Fish')]);
        expect(await view(1)).toBeDefined();
      });

      it("erases a user's ratings of a withdrawn meal from its dish too", async () => {
        const { meals, userData } = store();
        const meal = serving(1, 'Fish');
        await meals.upsertMany([meal, serving(2, 'Fish', 7)]);
        await rate('alice', meal, 4);
        await meals.withdraw(1, servedAt);
        const dish = await dishOf(2);
        expect(await userData.eraseAll('alice')).toEqual({
          markings: 0,
          ratings: 1,
          meals: [{ mealId: 1, histogram: emptyHistogram, dish: { id: dish.id, histogram: emptyHistogram } }],
        });
        expect((await dishOf(2)).histogram).toEqual(emptyHistogram);
      });

      it('lets an import withdraw the future meals its feed no longer lists, and serve them again when it does', async () => {
        const { mealSources } = store();
        const soon = '2025-03-20';
        const candidate = (name: string): MenuCandidate => {
          const { id: _id, ...meal } = sampleMeal(0, { name, servedAt: new Date('2025-03-20T11:00:00.000Z') });
          return { key: JSON.stringify(['feed', soon, name]), servedOn: soon, meal };
        };
        const scope = { source: 'feed', days: [soon], servedIn: [] };
        const before = new Date('2025-03-15T00:00:00.000Z');
        const first = accepted(
          await mealSources.importMenu(scope, (snapshot) =>
            planMenuImport([candidate('A'), candidate('B')], snapshot, before),
          ),
        );
        const [a, b] = first.added.map((added) => added.meal.id);
        const second = accepted(
          await mealSources.importMenu(scope, (snapshot) => planMenuImport([candidate('A')], snapshot, before)),
        );
        expect(second.withdrawn.map((meal) => meal.id)).toEqual([b]);
        expect(await view(b!)).toBeUndefined();
        expect(await view(a!)).toBeDefined();
        const third = accepted(
          await mealSources.importMenu(scope, (snapshot) =>
            planMenuImport([candidate('A'), candidate('B')], snapshot, before),
          ),
        );
        expect(third.updated.map((meal) => meal.id)).toEqual([b]);
        expect(await view(b!)).toBeDefined();
      });
    });

    describe('merge', () => {
      it('moves every serving and name into the target; the statistics add up; later writes of a merged name land there', async () => {
        const { meals, dishes, dishQueries } = store();
        const a = serving(1, 'Chili con Carne');
        const b = serving(2, 'Chili con carne (scharf)', 7);
        await meals.upsertMany([a, b, serving(3, 'Chili', 14)]);
        await rate('alice', a, 5);
        await rate('bob', b, 3);
        const [target, source, third] = await Promise.all([1, 2, 3].map(async (id) => (await dishOf(id)).id));

        const merged = accepted(
          await dishes.merge(target!, [source!, third!], (snapshot) =>
            decideDishMerge({ target: target!, from: [source!, third!] }, snapshot),
          ),
        );
        expect(merged).toEqual({ target, sources: [source, third], histogram: [0, 0, 1, 0, 1] });
        for (const id of [1, 2, 3]) expect((await dishOf(id)).id).toBe(target);
        expect((await dishOf(1)).histogram).toEqual([0, 0, 1, 0, 1]);
        expect(await dishQueries.dish(source!, null, readAt)).toBeUndefined();
        expect((await dishQueries.dish(target!, null, readAt))?.names).toEqual([
          'Chili',
          'Chili con Carne',
          'Chili con carne (scharf)',
        ]);

        await meals.upsertMany([serving(4, 'CHILI CON CARNE (SCHARF)', 21)]);
        expect((await dishOf(4)).id).toBe(target);
        await rate('carol', serving(4, 'x', 21), 1);
        expect((await dishOf(1)).histogram).toEqual([1, 0, 1, 0, 1]);
      });

      it('moves the aversions of the merged dishes to the target, keeping the earliest instant (issue 27)', async () => {
        const { meals, dishes, preferences } = store();
        await meals.upsertMany([serving(1, 'Chili'), serving(2, 'Chili sin carne', 7)]);
        const [target, source] = await Promise.all([1, 2].map(async (id) => (await dishOf(id)).id));
        const early = new Date(readAt.getTime() - 60_000);
        await preferences.avoid('alice', source!, early);
        await preferences.avoid('bob', target!, readAt);
        await preferences.avoid('bob', source!, early);
        accepted(
          await dishes.merge(target!, [source!], (snapshot) =>
            decideDishMerge({ target: target!, from: [source!] }, snapshot),
          ),
        );
        expect((await preferences.preferencesOf('alice')).aversions).toEqual([{ dishId: target, since: early }]);
        expect((await preferences.preferencesOf('bob')).aversions).toEqual([{ dishId: target, since: early }]);
      });

      it('refuses unknown dishes and dishes of another canteen, writing nothing', async () => {
        const { meals, canteens, dishes } = store();
        await canteens.save(bistro);
        await meals.upsertMany([serving(1, 'Soup'), serving(2, 'Soup', 0, { canteenId: bistro.id })]);
        const [here, there] = [(await dishOf(1)).id, (await dishOf(2)).id];
        const merge = (target: DishId, from: DishId[]) =>
          dishes.merge(target, from, (snapshot) => decideDishMerge({ target, from }, snapshot));
        expect(await merge(here, [there])).toMatchObject({ ok: false, refusal: { code: 'dishes_in_other_canteens' } });
        expect(await merge(here, [999_999])).toMatchObject({ ok: false, refusal: { code: 'dish_not_found' } });
        expect(await merge(999_999, [here])).toMatchObject({ ok: false, refusal: { code: 'dish_not_found' } });
        expect((await dishOf(2)).id).toBe(there);
        expect((await dishOf(1)).id).toBe(here);
      });
    });

    describe('dish reads', () => {
      it("answers a dish with its names and, for a reader, the reader's own figures over every serving", async () => {
        const { meals, markings, dishQueries } = store();
        const a = serving(1, 'Lasagne');
        const b = serving(2, 'lasagne', 7);
        await meals.upsertMany([a, b]);
        await rate('alice', a, 4);
        await rate('alice', b, 2);
        await rate('bob', b, 5);
        await markings.setMarked('alice', 2, true);
        const id = (await dishOf(1)).id;

        const anonymous = await dishQueries.dish(id, null, readAt);
        expect(anonymous).toEqual({
          dish: {
            id,
            canteenId: 'default',
            name: 'Lasagne',
            histogram: [0, 1, 0, 1, 1],
            timesServed: 2,
            lastServedAt: b.servedAt,
            nextServedAt: null,
          },
          names: ['Lasagne'],
          personal: null,
        });
        expect((await dishQueries.dish(id, 'alice', readAt))?.personal).toEqual({
          marked: true,
          histogram: [0, 1, 0, 1, 0],
        });
        expect((await dishQueries.dish(id, 'carol', readAt))?.personal).toEqual({
          marked: false,
          histogram: emptyHistogram,
        });
        expect(await dishQueries.dish(999_999, null, readAt)).toBeUndefined();
      });

      it('pages through the servings that are not withdrawn, newest first', async () => {
        const { meals, dishQueries } = store();
        await meals.upsertMany([
          serving(1, 'Rice', 0),
          serving(2, 'Rice', 7),
          serving(3, 'Rice', 14),
          serving(4, 'Rice', 21),
        ]);
        await meals.withdraw(3, servedAt);
        const id = (await dishOf(1)).id;
        const first = await dishQueries.servings(id, 'alice', { after: null, limit: 2 }, readAt);
        expect(first.map((meal) => meal.meal.id)).toEqual([4, 2]);
        const rest = await dishQueries.servings(
          id,
          'alice',
          { after: { servedAt: first[1]!.meal.servedAt, mealId: 2 }, limit: 2 },
          readAt,
        );
        expect(rest.map((meal) => meal.meal.id)).toEqual([1]);
      });

      it("finds a canteen's dishes by any part of any of their names, without case or accents, by id, a page at a time", async () => {
        const { meals, canteens, dishQueries } = store();
        await canteens.save(bistro);
        await meals.upsertMany([
          serving(1, 'Käsespätzle'),
          serving(2, 'Spätzle mit Soße', 1),
          serving(3, 'Kaiserschmarrn', 2),
          serving(4, 'Käsespätzle', 3, { canteenId: bistro.id }),
        ]);
        const ids = async (text: string, after: DishId | null = null, limit = 10) =>
          (await dishQueries.search('default', text, { after, limit }, readAt)).map((dish) => dish.name);
        expect(await ids('SPATZLE')).toEqual(['Käsespätzle', 'Spätzle mit Soße']);
        expect(await ids('kase')).toEqual(['Käsespätzle']);
        expect(await ids('kaes')).toEqual([]);
        // Case folding is full: ß folds to ss, as its capital SS does.
        expect(await ids('SOSSE')).toEqual(['Spätzle mit Soße']);
        expect(await ids('soße')).toEqual(['Spätzle mit Soße']);
        expect(await ids('%')).toEqual([]);
        expect(await ids('_')).toEqual([]);
        const page = await dishQueries.search('default', 'a', { after: null, limit: 2 }, readAt);
        expect(page).toHaveLength(2);
        const next = await dishQueries.search('default', 'a', { after: page[1]!.id, limit: 2 }, readAt);
        expect(next.map((dish) => dish.name)).toEqual(['Kaiserschmarrn']);
      });

      it('finds across canteens without a canteen, and lists every dish without text, by id', async () => {
        const { meals, canteens, dishQueries } = store();
        await canteens.save(bistro);
        await meals.upsertMany([
          serving(1, 'Käsespätzle'),
          serving(2, 'Curry', 1),
          serving(3, 'Käsespätzle', 2, { canteenId: bistro.id }),
        ]);
        const found = async (canteenId: string | null, text: string) =>
          (await dishQueries.search(canteenId, text, { after: null, limit: 10 }, readAt)).map(
            (dish) => `${dish.canteenId}/${dish.name}`,
          );
        expect(await found(null, 'spatzle')).toEqual(['default/Käsespätzle', 'bistro/Käsespätzle']);
        expect(await found(null, '')).toEqual(['default/Käsespätzle', 'default/Curry', 'bistro/Käsespätzle']);
        expect(await found('default', '')).toEqual(['default/Käsespätzle', 'default/Curry']);
      });

      it('finds only the dishes of which a serving that is not withdrawn passes a label filter, before the page is cut', async () => {
        const { meals, canteens, dishQueries } = store();
        await canteens.save(bistro);
        // Labels as the catalog is given them: with their parents (MealLabelling adds them).
        await meals.upsertMany([
          serving(1, 'Weizenbrot', 0, { labels: ['gluten', 'wheat'] }),
          serving(2, 'Linsencurry', 0, { labels: ['vegan', 'vegetarian'] }),
          serving(3, 'Senfei', 0, { labels: ['eggs', 'mustard', 'vegetarian'] }),
          // A dish served once with sesame and once without: the second serving passes without=sesame.
          serving(4, 'Falafel', 0, { labels: ['sesame', 'vegan', 'vegetarian'] }),
          serving(5, 'Falafel', 7, { labels: ['vegan', 'vegetarian'] }),
          // Its only vegan serving is withdrawn: it does not count.
          serving(6, 'Gemüsesuppe', 0, { labels: ['celery'] }),
          serving(7, 'Gemüsesuppe', 7, { labels: ['vegan', 'vegetarian'] }),
          serving(8, 'Linsencurry', 0, { canteenId: bistro.id, labels: ['vegan', 'vegetarian'] }),
        ]);
        await meals.withdraw(7, servedAt);
        const found = async (
          filter: { without?: string[]; only?: string[] },
          canteenId: string | null = 'default',
          after: DishId | null = null,
          limit = 10,
        ) =>
          (
            await dishQueries.search(canteenId, '', { after, limit }, readAt, {
              without: filter.without ?? [],
              only: filter.only ?? [],
            })
          ).map((dish) => `${dish.canteenId}/${dish.name}`);
        expect(await found({})).toEqual([
          'default/Weizenbrot',
          'default/Linsencurry',
          'default/Senfei',
          'default/Falafel',
          'default/Gemüsesuppe',
        ]);
        expect(await found({ without: ['gluten'] })).toEqual([
          'default/Linsencurry',
          'default/Senfei',
          'default/Falafel',
          'default/Gemüsesuppe',
        ]);
        expect(await found({ without: ['sesame', 'mustard'] })).toEqual([
          'default/Weizenbrot',
          'default/Linsencurry',
          'default/Falafel',
          'default/Gemüsesuppe',
        ]);
        expect(await found({ only: ['vegan'] })).toEqual(['default/Linsencurry', 'default/Falafel']);
        // A parent keeps its sub-kinds: only=vegetarian keeps the vegan dishes.
        expect(await found({ only: ['vegetarian'] })).toEqual([
          'default/Linsencurry',
          'default/Senfei',
          'default/Falafel',
        ]);
        expect(await found({ without: ['sesame'], only: ['vegan'] })).toEqual([
          'default/Linsencurry',
          'default/Falafel',
        ]);
        expect(await found({ only: ['vegan', 'eggs'] })).toEqual([]);
        expect(await found({ only: ['vegan'] }, null)).toEqual([
          'default/Linsencurry',
          'default/Falafel',
          'bistro/Linsencurry',
        ]);
        // Pages are cut after the filter: the first page of one holds the first dish that passes.
        const [first] = await dishQueries.search('default', '', { after: null, limit: 1 }, readAt, {
          without: [],
          only: ['vegan'],
        });
        expect(first?.name).toBe('Linsencurry');
        expect(await found({ only: ['vegan'] }, 'default', first!.id, 1)).toEqual(['default/Falafel']);
        expect(await found({ without: [], only: [] }, 'default', null, 2)).toEqual([
          'default/Weizenbrot',
          'default/Linsencurry',
        ]);
      });

      it("answers a canteen's dishes that are still served, by id, with their figures; not those only withdrawn or merged away", async () => {
        const { meals, canteens, dishes, dishQueries } = store();
        await canteens.save(bistro);
        const soup = serving(1, 'Soup', -7);
        await meals.upsertMany([
          soup,
          serving(2, 'soup', 0),
          serving(3, 'Curry', 7),
          serving(4, 'Fish', 1),
          serving(5, 'Stew', 2),
          serving(6, 'Stew (merged)', 3),
          serving(7, 'Soup', 0, { canteenId: bistro.id }),
        ]);
        await rate('alice', soup, 4);
        await meals.withdraw(4, servedAt);
        const [soupId, curryId, stewId, mergedId] = await Promise.all(
          [1, 3, 5, 6].map(async (id) => (await dishOf(id)).id),
        );
        accepted(
          await dishes.merge(stewId!, [mergedId!], (snapshot) =>
            decideDishMerge({ target: stewId!, from: [mergedId!] }, snapshot),
          ),
        );
        const asOf = new Date(servedAt.getTime() + day);

        const found = await dishQueries.ofCanteen('default', asOf);

        // Fish's one serving is withdrawn: it is no longer served, though it stays a dish.
        expect(found.map((dish) => dish.id)).toEqual([soupId, curryId, stewId].sort((a, b) => a! - b!));
        expect(found.find((dish) => dish.id === soupId)).toEqual({
          id: soupId,
          canteenId: 'default',
          name: 'Soup',
          histogram: [0, 0, 0, 1, 0],
          timesServed: 2,
          lastServedAt: servedAt,
          nextServedAt: null,
        });
        // A dish only to come is served too: it has no ratings yet.
        expect(found.find((dish) => dish.id === curryId)).toMatchObject({
          timesServed: 0,
          nextServedAt: new Date(servedAt.getTime() + 7 * day),
        });
        expect((await dishQueries.ofCanteen(bistro.id, asOf)).map((dish) => dish.name)).toEqual(['Soup']);
        expect(await dishQueries.ofCanteen('nowhere', asOf)).toEqual([]);
      });

      it('counts the users who marked a serving of each dish, once per user, withdrawn servings included', async () => {
        const { meals, markings, dishQueries } = store();
        await meals.upsertMany([
          serving(1, 'Soup', 0),
          serving(2, 'Soup', 7),
          serving(3, 'Curry', 1),
          serving(4, 'Fish', 2),
        ]);
        for (const [userId, mealId] of [
          ['alice', 1],
          ['alice', 2],
          ['bob', 2],
          ['carol', 3],
        ] as const) {
          await markings.setMarked(userId, mealId, true);
        }
        const [soup, curry, fish] = await Promise.all([1, 3, 4].map(async (id) => (await dishOf(id)).id));
        await meals.withdraw(3, servedAt);

        expect(await dishQueries.markingCounts([soup!, curry!, fish!, 999_999])).toEqual(
          new Map([
            [soup, 2],
            [curry, 1],
          ]),
        );
        expect(await dishQueries.markingCounts([fish!])).toEqual(new Map());
        expect(await dishQueries.markingCounts([])).toEqual(new Map());
      });
    });
  });
}
